import { chromium, type Browser } from 'playwright-core';

// Debian's Chromium, driven by playwright-core (no browser download): test/setup/chromium.js
// (jest's globalSetup) finds or installs it, or leaves CHROMIUM_MISSING saying how to get it.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps calling home, which a closed
// network refuses (see the machine notes).
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium(): Promise<Browser> {
  if (process.env.CHROMIUM_MISSING) throw new Error(process.env.CHROMIUM_MISSING);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
}
