import fc from 'fast-check';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { alertCommands } from './alert-commands';
import { seedModel, type Model } from './model';
import { oidcCommands } from './oidc-commands';
import { resetWorld, type Real } from './real';
import { roleCommands } from './role-commands';
import { expectWorldMatches } from './world-checks';

// Issue #8 "Nothing lost": random sequences of alert updates, role assignments and OIDC changes,
// by callers with and without the right, through real HTTP. After every step the answer and the
// alerts are checked against the in-memory model (refusals must change no table); at the end of
// every run, everything the model knows. The seed is in the test's name and a failure prints its
// path and shrunk commands; replay one with MODEL_SEED=<seed> MODEL_PATH=<path> (and
// MODEL_REPLAY_PATH=<replayPath> from the counterexample, to skip the shrinking already done).

const RUNS = Number(process.env.MODEL_RUNS ?? 20);
const MAX_COMMANDS = 40;
const { MODEL_SEED, MODEL_PATH, MODEL_REPLAY_PATH } = process.env;
const SEED = MODEL_SEED === undefined ? Date.now() % 2 ** 31 : Number(MODEL_SEED);

type Weighted = fc.WeightedArbitrary<fc.AsyncCommand<Model, Real>>;
/** fc.commands picks its arbitraries uniformly: a weight is that many copies. */
const byWeight = (commands: Weighted[]) => commands.flatMap(({ arbitrary, weight }) => Array.from({ length: weight }, () => arbitrary));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it(`every sequence of alert, role and OIDC changes leaves exactly what the model says, and refusals change nothing (seed ${SEED})`, async () => {
  const commands = fc.commands(byWeight([...alertCommands, ...roleCommands, ...oidcCommands]), {
    maxCommands: MAX_COMMANDS,
    size: 'max',
    ...(MODEL_REPLAY_PATH === undefined ? {} : { replayPath: MODEL_REPLAY_PATH }),
  });
  await fc.assert(
    fc.asyncProperty(commands, async (steps) => {
      const real = await resetWorld(t);
      const model = seedModel();
      await fc.asyncModelRun(() => ({ model, real }), steps);
      await expectWorldMatches(model, real);
    }),
    // The runs are counted (RUNS); the time limit only bounds the shrinking of a failure, so a
    // failing CI run still ends. 20 runs take about a minute on a quiet 2-core machine and
    // up to three on a loaded one: the limit leaves room for that, and the suite stays under CI's.
    { numRuns: RUNS, seed: SEED, ...(MODEL_PATH === undefined ? {} : { path: MODEL_PATH }), interruptAfterTimeLimit: 420_000, markInterruptAsFailure: true },
  );
}, 480_000);
