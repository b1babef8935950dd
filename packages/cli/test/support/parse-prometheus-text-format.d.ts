// The package ships no types; this is the shape of what it returns (one entry per metric family).
declare module 'parse-prometheus-text-format' {
  export interface PrometheusFamily {
    readonly name: string;
    readonly help: string;
    /** Upper case: COUNTER, GAUGE, HISTOGRAM, SUMMARY or UNTYPED. */
    readonly type: string;
    readonly metrics: readonly { readonly labels?: Record<string, string>; readonly value?: string }[];
  }
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
