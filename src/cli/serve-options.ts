import type { Command } from 'commander';
import { SETTING_NAMES } from '../config';
import { addSettingOptions } from './setting-options';

/** The flags of `orgsec serve`: every setting (they all matter to a running server) and --demo. */
export function addServeOptions(command: Command): Command {
  return addSettingOptions(command, SETTING_NAMES)
    .option('--demo', 'load the bundled demo world when the database is empty, and print its tokens');
}
