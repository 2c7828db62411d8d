import fc from 'fast-check';
import { CALLERS, type Caller } from './model-world';
import { expectAllAlertsMatch } from './alert-checks';
import type { Model } from './model';
import type { Real } from './real';

/**
 * One step of a run. Every command may run in any state (the model decides what the API
 * must answer, refusals included), and after each one the alerts are checked against the model.
 */
export abstract class StepCommand implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }

  async run(m: Model, real: Real): Promise<void> {
    await this.step(m, real);
    await expectAllAlertsMatch(m, real);
  }

  protected abstract step(m: Model, real: Real): Promise<void>;
  abstract toString(): string;
}

/**
 * Callers, weighted towards the owner (who may do everything) so runs change state; the others
 * are allowed or refused as the model's roles say at that moment.
 */
export const callerArb: fc.Arbitrary<Caller> = fc.oneof(
  ...CALLERS.map((caller) => ({ arbitrary: fc.constant(caller), weight: caller === 'owner' ? 8 : caller === 'anonymous' ? 1 : 2 })),
);

/** The current time as the API writes timestamps (UTC, whole seconds). */
export const nowStamp = () => `${new Date().toISOString().slice(0, 19)}Z`;
