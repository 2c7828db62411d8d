import type { Instance } from '../helpers/instances';

// Ending a server process started by startInstance, whatever state it is in. (A process
// killed by a signal has a signalCode and no exitCode, and emits 'exit' only once.)

function hasExited(instance: Instance): boolean {
  return instance.process.exitCode !== null || instance.process.signalCode !== null;
}

function endWith(instance: Instance, signal: NodeJS.Signals): Promise<void> {
  if (hasExited(instance)) return Promise.resolve();
  return new Promise((resolve) => {
    instance.process.once('exit', () => resolve());
    instance.process.kill(signal);
  });
}

/** SIGKILL: the process gets no chance to finish anything. */
export function sigkill(instance: Instance): Promise<void> {
  return endWith(instance, 'SIGKILL');
}

/** A graceful stop (SIGTERM), unless the process has already ended. */
export function stopIfRunning(instance: Instance): Promise<void> {
  return endWith(instance, 'SIGTERM');
}
