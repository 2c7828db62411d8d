import { Option, type Command } from 'commander';
import { SETTINGS, SETTING_NAMES, flagOf, loadConfig, type Config, type SettingName } from '../config';

// The flags that mirror environment variables are built from config.ts's SETTINGS, so a
// flag, its variable and its help cannot drift apart, and both go through one validation.

/** The commander option mirroring a setting; its help names the variable and the default. */
export function settingOption(name: SettingName): Option {
  const s = SETTINGS[name];
  return new Option(s.flag, `${s.description} (env: ${name}, default: ${s.default})`);
}

/** Adds the flags of `names` to the command. */
export function addSettingOptions(command: Command, names: readonly SettingName[]): Command {
  for (const name of names) command.addOption(settingOption(name));
  return command;
}

/** The configuration from the environment and the parsed flags (flags win), validated in one place. */
export function configFromOptions(options: object): Config {
  const flags: Partial<Record<SettingName, string>> = {};
  for (const name of SETTING_NAMES) {
    const value = (options as Record<string, unknown>)[settingOption(name).attributeName()];
    // `--trust-proxy` without a value is true.
    if (value !== undefined) flags[name] = String(value);
  }
  return loadConfig(process.env, flags);
}

const CHECKED = 'Every value is checked at start-up: all bad values are reported at once, and the\ncommand exits 1 before it touches the database or listens.';

/** The help section listing variables with their flags and defaults. */
export function environmentHelp(names: readonly SettingName[] = SETTING_NAMES): string {
  const width = Math.max(...names.map((n) => n.length));
  const lines = names.map((n) => `  ${n.padEnd(width)}  ${flagOf(n)}, default: ${SETTINGS[n].default}`);
  const others = names.length < SETTING_NAMES.length ? '\nThe other variables (see `orgsec serve --help`) are checked as well.' : '';
  return `\nEnvironment variables (a flag overrides its variable; \`orgsec serve --help\` describes each):\n${lines.join('\n')}\n\n${CHECKED}${others}`;
}

/** For a command whose options already name their variables. */
export function checkedHelp(): string {
  return `\nEach flag overrides the environment variable it names; an empty variable counts as unset.\n${CHECKED}`;
}
