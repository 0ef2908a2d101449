"""`make bench`: run every benchmark in turn."""

from bench import astrocartography, natal_chart, positions_throughput, sky, store_throughput


def main() -> None:
    positions_throughput.main()
    store_throughput.main()
    natal_chart.main()
    sky.main()
    astrocartography.main()


if __name__ == "__main__":
    main()
