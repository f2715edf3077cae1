/** The part of autocannon's programmatic API the HTTP benchmark uses (the package ships no types). */
declare module 'autocannon' {
  interface Percentiles {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  export interface Options {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    timeout?: number;
    /** Worker threads; with workers, setupClient and verifyBody are paths of modules exporting the function. */
    workers?: number;
    setupClient?: string | ((client: { setHeaders(headers: Record<string, string>): void }) => void);
    verifyBody?: string | ((body: string) => boolean);
  }

  export interface Result {
    duration: number;
    start: string;
    finish: string;
    connections: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Percentiles;
    requests: Percentiles & { sent: number };
    throughput: Percentiles;
    totalCompletedRequests?: number;
  }

  interface Tracker {
    stop(): void;
  }

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Tracker;
  export default autocannon;
}
