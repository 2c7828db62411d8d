import type { MiddleCursors } from './distinct-pages';

// What the load runner sends, as plain JSON (it runs in its own process).

export interface AlertRef {
  /** `owner/name` */
  repository: string;
  number: number;
  state: 'open' | 'dismissed';
}

export type RequestPlan =
  /** The same request every time; `expectStatus` is what a correct answer carries. */
  | { kind: 'same'; method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string; expectStatus: number }
  /**
   * Organization alert pages (or, with `repositories`, those repositories' pages), no two alike: points `firstIndex`, `firstIndex + 1`, … of the space
   * (each scenario starts elsewhere, so no scenario repeats another's requests either).
   */
  | { kind: 'distinct-pages'; org: string; cursors: MiddleCursors; firstIndex: number; headers: Record<string, string>; repositories?: string[] }
  /** Distinct pages, and every `writeEvery`-th request a PATCH toggling one of `alerts` between open and dismissed. */
  | { kind: 'patch-mix'; org: string; cursors: MiddleCursors; firstIndex: number; headers: Record<string, string>; repositories?: string[]; alerts: AlertRef[]; writeEvery: number };

export interface LoadSettings {
  url: string;
  connections: number;
  seconds: number;
  /** Sent first and not measured: every server, floors included, is measured warm. */
  warmupSeconds: number;
  plan: RequestPlan;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Answers whose status is not the one a correct answer carries (for the PATCH mix: non-2xx). */
  unexpected: number;
  errors: number;
  timeouts: number;
  /** 200 answers carrying an empty list, where the plan promised alerts. */
  emptyPages: number;
  /** Requests sent beyond the plan's distinct space (0 when no two requests were alike). */
  repeated: number;
  writes: number;
  /** Requests issued, warm-up included: where a next round of a distinct plan starts. */
  issued: number;
}
