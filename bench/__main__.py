"""`make bench`: run every benchmark in turn."""

from bench import (
    astrocartography,
    calendar,
    chart_wheel,
    dashboard_pages,
    explain_difference,
    figures,
    forecast,
    idempotency_throughput,
    kernel_costs,
    metrics_overhead,
    natal_chart,
    parans,
    positions_throughput,
    search_lanes,
    sensitivity,
    sky,
    status_recording,
    store_throughput,
    tenant_isolation,
    timelords,
    tracing_cost,
    transits,
    vedic,
    webhook_scheduling,
)


def main() -> None:
    positions_throughput.main()
    metrics_overhead.main()
    store_throughput.main()
    idempotency_throughput.main()
    kernel_costs.main()
    natal_chart.main()
    chart_wheel.main()
    sky.main()
    astrocartography.main()
    parans.main()
    timelords.main()
    vedic.main()
    transits.main()
    calendar.main()
    forecast.main()
    explain_difference.main()
    sensitivity.main()
    search_lanes.main()
    tenant_isolation.main()
    dashboard_pages.main()
    webhook_scheduling.main()
    status_recording.main()
    tracing_cost.main()
    print(f"figures written to {figures.write()}")


if __name__ == "__main__":
    main()
