import { compareDigits, type VersionScheme } from './version-scheme';

// NuGet: NuGet.Versioning's order. Up to four numeric parts (missing ones are 0, leading zeros
// allowed: 1.0.01 = 1.0.1.0), a pre-release label compared part by part, case-insensitively
// (numeric parts numerically and before alphanumeric ones), build metadata ignored. Like
// NuGetVersion.TryParse, a leading "v" is not accepted. Written here: no maintained JavaScript
// implementation of NuGet's rules exists.

export interface NuGetVersion {
  readonly release: readonly string[];
  readonly labels: readonly string[];
}

const IDENTIFIERS = '[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*';
const NUGET_VERSION = new RegExp(`^(\\d+(?:\\.\\d+){0,3})(?:-(${IDENTIFIERS}))?(?:\\+${IDENTIFIERS})?$`);

function compareLabel(a: string, b: string): number {
  const isNumberA = /^\d+$/.test(a);
  const isNumberB = /^\d+$/.test(b);
  if (isNumberA && isNumberB) return compareDigits(a, b);
  if (isNumberA !== isNumberB) return isNumberA ? -1 : 1;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

export const nugetVersionScheme: VersionScheme<NuGetVersion> = {
  parse(text) {
    const match = NUGET_VERSION.exec(text.trim());
    if (!match) return undefined;
    return { release: (match[1] as string).split('.'), labels: match[2] === undefined ? [] : match[2].split('.') };
  },
  compare(a, b) {
    for (let i = 0; i < 4; i++) {
      const order = compareDigits(a.release[i] ?? '0', b.release[i] ?? '0');
      if (order !== 0) return order;
    }
    // A release sorts after its pre-releases.
    const isReleaseA = a.labels.length === 0;
    const isReleaseB = b.labels.length === 0;
    if (isReleaseA || isReleaseB) return isReleaseA === isReleaseB ? 0 : isReleaseA ? 1 : -1;
    for (let i = 0; i < Math.min(a.labels.length, b.labels.length); i++) {
      const order = compareLabel(a.labels[i] as string, b.labels[i] as string);
      if (order !== 0) return order;
    }
    return Math.sign(a.labels.length - b.labels.length);
  },
};
