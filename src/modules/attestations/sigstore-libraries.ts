// Sigstore's libraries hold about 10 MB of memory once loaded: an instance loads them when it
// first checks a bundle or reads a trusted root, not at start-up, so one that never sees an
// attestation never pays for them. Their types are imported as usual (`import type`).

interface SigstoreLibraries {
  bundle: typeof import('@sigstore/bundle');
  core: typeof import('@sigstore/core');
  protobufSpecs: typeof import('@sigstore/protobuf-specs');
  verify: typeof import('@sigstore/verify');
}

let loaded: SigstoreLibraries | undefined;

/** The libraries, loaded on the first call. */
export function sigstore(): SigstoreLibraries {
  /* eslint-disable @typescript-eslint/no-require-imports -- required here, not imported at the top: importing is what loads them */
  return (loaded ??= {
    bundle: require('@sigstore/bundle') as SigstoreLibraries['bundle'],
    core: require('@sigstore/core') as SigstoreLibraries['core'],
    protobufSpecs: require('@sigstore/protobuf-specs') as SigstoreLibraries['protobufSpecs'],
    verify: require('@sigstore/verify') as SigstoreLibraries['verify'],
  });
  /* eslint-enable @typescript-eslint/no-require-imports */
}
