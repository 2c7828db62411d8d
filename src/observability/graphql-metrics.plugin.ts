import type { ApolloServerPlugin } from '@apollo/server';
import { Counter, Histogram, type Registry } from 'prom-client';

export interface GraphQLMetrics {
  plugin: ApolloServerPlugin;
  /** Counts an operation answered from the response cache, before Apollo (src/graphql/cached-responses.ts). */
  countCachedAnswer: (operationName: string | null, seconds: number) => void;
}

/** Distinct operation names kept as labels; later ones fold into `other`, so the label set stays bounded. */
const MAX_OPERATION_NAMES = 100;
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * GraphQL operations by name, type and outcome. Names are the client's choice, so they
 * are bounded: none is `anonymous`, one that never resolved (a parse or validation error)
 * `unknown`, and names past the first MAX_OPERATION_NAMES `other`.
 */
export function graphqlMetricsPlugin(registry: Registry, buckets: number[]): GraphQLMetrics {
  const labelNames = ['operation', 'type', 'outcome'] as const;
  const operations = new Counter({ name: 'orgsec_graphql_operations_total', help: 'GraphQL operations, by operation name, type and outcome (success or error).', labelNames, registers: [registry] });
  const durations = new Histogram({
    name: 'orgsec_graphql_operation_duration_seconds', help: 'Time to answer a GraphQL operation, by operation name, type and outcome.',
    labelNames, buckets, registers: [registry],
  });
  const seen = new Set<string>();
  const labelOf = (name: string | null | undefined): string => {
    if (!name) return 'anonymous';
    if (!OPERATION_NAME.test(name)) return 'other';
    if (seen.has(name)) return name;
    if (seen.size >= MAX_OPERATION_NAMES) return 'other';
    seen.add(name);
    return name;
  };
  const countCachedAnswer = (operationName: string | null, seconds: number) => {
    const labels = { operation: labelOf(operationName), type: 'query', outcome: 'success' };
    operations.inc(labels);
    durations.observe(labels, seconds);
  };
  const plugin: ApolloServerPlugin = {
    async requestDidStart() {
      const stopTimer = durations.startTimer();
      let operation = 'unknown';
      let type = 'unknown';
      let failed = false;
      return {
        async didResolveOperation(context) {
          operation = labelOf(context.operationName);
          type = context.operation?.operation ?? 'unknown';
        },
        async didEncounterErrors() {
          failed = true;
        },
        async willSendResponse() {
          const labels = { operation, type, outcome: failed ? 'error' : 'success' };
          operations.inc(labels);
          stopTimer(labels);
        },
      };
    },
  };
  return { plugin, countCachedAnswer };
}
