"""`make bench`: run every benchmark in turn."""

from bench import positions_throughput


def main() -> None:
    positions_throughput.main()


if __name__ == "__main__":
    main()
