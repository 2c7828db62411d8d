// The part of autocannon 9's programmatic API the load runner uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Called before each request is sent; returns the request to send. */
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
      /** Called with each answer (autocannon then keeps the body). */
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }
    interface Options {
      url: string;
      connections: number;
      duration: number;
      requests: Request[];
    }
    interface Histogram { average: number; p50: number; p99: number }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats?: Record<string, { count: number | string }>;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
