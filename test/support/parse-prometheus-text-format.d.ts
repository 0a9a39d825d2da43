/**
 * The part of parse-prometheus-text-format 1.1's API the metrics tests use. The package ships no
 * types; these follow its README (output compatible with prom2json: values stay strings).
 */
declare module "parse-prometheus-text-format" {
  export interface Sample {
    labels?: Record<string, string>;
    /** Counters, gauges, untyped. */
    value?: string;
    /** Histograms: cumulative counts by upper bound ("+Inf" included). */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface MetricFamily {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: Sample[];
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
