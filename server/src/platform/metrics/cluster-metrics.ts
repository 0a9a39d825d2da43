import { AggregatorRegistry, type PrometheusContentType, type Registry } from "prom-client";

/**
 * Metrics with `--workers` (README, "Metrics" and "Workers"): the primary serves METRICS_PORT
 * alone and answers each scrape with its workers' metrics, asked over the cluster's channel and
 * aggregated by prom-client (counters and histograms summed, each gauge as its definition says);
 * no worker opens a metrics listener of its own, which would share the port and answer a scrape
 * with one random worker's counts.
 */

/** In a worker: answer the primary's requests with `registry` (the app's). */
export function shareWithPrimary(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
  // The constructor installs the worker's listener for the primary's requests.
  new AggregatorRegistry<PrometheusContentType>();
}

/** In the primary: a registry-like source whose text is every live worker's metrics, aggregated. */
export function workersMetrics(): Pick<Registry, "metrics" | "contentType"> {
  const aggregator = new AggregatorRegistry<PrometheusContentType>();
  return {
    metrics: () => aggregator.clusterMetrics(),
    contentType: aggregator.contentType,
  };
}
