import { openDatabase } from '../../src/database/connection';
import { insertBenchAdvisories } from './advisories-bench';
import { cycloneDxBom, generateNpmProject, snapshotSubmission, withVersions, type NpmProject } from './generate-sbom';
import { BIG_ORG } from './generate-world';
import { median, percentile } from './measure';
import { startOrgsec } from './orgsec-server';
import { LOAD_CORE, cpuSeconds, pinSelf } from './processes';
import { SUBMISSIONS, pickVersionInScan, postApplied, vulnerablePicks, type SnapshotDoor, type VulnerablePick } from './snapshots-bench';
import { copyOfWorld, removeSqliteFile } from './world-setup';

// Issue 39's benchmark: a CycloneDX BOM of 2,000 npm components uploaded (#68) against the
// snapshot of the same 2,000 packages and graph submitted (#30), on one `orgsec serve` over a
// copy of the benchmark world with its 20,000 advisories added, one client. Each scan sends
// both, in alternating order, each to a repository of its own, with a few packages moved in
// and out of vulnerable versions (alerts open, get fixed and come back); request to 201.
// Target: the upload's p50 within 1.5 × the snapshot's, since both end in the same work and
// the upload only adds reading the document and checking it against its specification.

export const SBOM_UPLOAD_SCENARIO = 'CycloneDX upload against the equivalent snapshot';
const COMPONENTS = 2_000;
/** Packages at a version advisories affect, spread over the graph (two of them direct). */
const VULNERABLE = 40;
const RATIO_LIMIT = 1.5;
const WARMUP_SCANS = 10;
const MANIFEST = 'package-lock.json';
const UPLOADS: SnapshotDoor = { path: `sbom-uploads?manifest=${MANIFEST}`, contentType: 'application/vnd.cyclonedx+json' };
const SUBMITTED_TO = `${BIG_ORG}/service-1`;
const UPLOADED_TO = `${BIG_ORG}/service-2`;

interface Timing {
  p50: number;
  p99: number;
  count: number;
  /** Server CPU per request, ms (from /proc, summed over the requests). */
  cpuMs: number | undefined;
}

export interface SbomUploadBenchResult {
  advisories: number;
  /** The BOM: components (nested ones too), bytes, development-only and nested components; the snapshot's bytes. */
  bom?: { components: number; bytes: number; development: number; nested: number; edges: number; snapshotBytes: number };
  snapshot?: Timing;
  upload?: Timing;
  /** The upload's p50 over the snapshot's. */
  ratio?: number;
  error?: string;
}

interface Scans {
  /** The project at scan `seq` (the vulnerable picks' versions move with its parity). */
  at(seq: number): NpmProject;
}

function scansOf(picks: readonly VulnerablePick[]): Scans {
  const at = (k: number) => k * (COMPONENTS / VULNERABLE) + 7;
  const project = generateNpmProject(COMPONENTS, new Map(picks.map((pick, k) => [at(k), pick])));
  const byParity = [0, 1].map((parity) => withVersions(project, new Map(picks.map((pick, k) => [at(k), pickVersionInScan(pick, k, parity)]))));
  return { at: (seq) => byParity[seq % 2]! };
}

/** The computed alerts of a repository as what they are about (advisory, package, manifest, scope, relationship, state), in order. */
async function computedAlerts(file: string, repository: string): Promise<string[]> {
  const db = openDatabase(file);
  try {
    const [owner, name] = repository.split('/');
    const rows: Array<Record<string, string | number>> = await db.knex('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id').join('accounts as o', 'o.id', 'r.owner_id')
      .where('o.login', owner).where('r.name', name).whereNotNull('a.vulnerability_id')
      .select('a.advisory_id', 'a.package_name', 'a.manifest_path', 'a.scope', 'a.relationship', 'a.state');
    return rows.map((r) => Object.values(r).join(' ')).sort();
  } finally {
    await db.close();
  }
}

export interface SbomUploadBenchSettings {
  workDir: string;
  /** The benchmark world's database, copied (left as it is). */
  worldFile: string;
  port: number;
  /** Timed scans (each one upload and one snapshot), after WARMUP_SCANS unmeasured. */
  scans: number;
}

export async function benchSbomUploads(s: SbomUploadBenchSettings): Promise<SbomUploadBenchResult> {
  const file = copyOfWorld(s.worldFile, s.workDir, 'sbom-uploads.sqlite');
  const result: SbomUploadBenchResult = { advisories: 0 };
  let scans: Scans;
  const db = openDatabase(file);
  try {
    result.advisories = await insertBenchAdvisories(db);
    scans = scansOf(await vulnerablePicks(db, 'npm', VULNERABLE));
  } finally {
    await db.close();
  }
  // Built before the server starts, as bytes: the client's work is not the server's. The BOM's
  // versions move with the scan's parity, so two documents serve every scan; each upload is
  // its own snapshot all the same (scanned when it arrives).
  const started = new Date();
  const boms = [0, 1].map((parity) => Buffer.from(cycloneDxBom(scans.at(parity), started)));
  const submissions = Array.from({ length: WARMUP_SCANS + s.scans + 1 }, (_, seq) => Buffer.from(snapshotSubmission(scans.at(seq), {
    sha: seq.toString(16).padStart(40, '0'), scanned: new Date(started.getTime() - 86_400_000 + seq * 1000), jobId: `run-${seq}`, correlator: 'bench-npm', manifest: MANIFEST,
  })));
  const project = scans.at(0);
  result.bom = {
    components: project.packages.length, bytes: boms[0]!.length, development: project.packages.filter((p) => p.isDev).length,
    nested: project.packages.filter((p) => p.nestedUnder !== null).length, edges: project.packages.reduce((n, p) => n + p.dependsOn.length, 0) + project.direct.length,
    snapshotBytes: submissions[0]!.length,
  };

  const server = await startOrgsec(file, s.port, { pinned: true });
  try {
    const timed = { snapshot: [] as number[], upload: [] as number[] };
    const cpu = { snapshot: 0, upload: 0 };
    let isCpuKnown = true;
    const send = async (kind: 'snapshot' | 'upload', seq: number, isTimed: boolean) => {
      const [repository, body, door] = kind === 'snapshot' ? [SUBMITTED_TO, submissions[seq]!, SUBMISSIONS] : [UPLOADED_TO, boms[seq % 2]!, UPLOADS];
      const cpuBefore = cpuSeconds(server.pid);
      const ms = await postApplied(server.url, repository, body, door);
      const cpuAfter = cpuSeconds(server.pid);
      if (!isTimed) return;
      timed[kind].push(ms);
      if (cpuBefore === undefined || cpuAfter === undefined) isCpuKnown = false;
      else cpu[kind] += cpuAfter - cpuBefore;
    };
    // The client on the load core: sending the documents is its work, not the server's.
    pinSelf(LOAD_CORE);
    try {
      for (let seq = 1; seq <= WARMUP_SCANS + s.scans; seq++) {
        // Alternately first and second: neither meets a server the other has just warmed or left busy more often.
        const order = seq % 2 === 0 ? (['snapshot', 'upload'] as const) : (['upload', 'snapshot'] as const);
        for (const kind of order) await send(kind, seq, seq > WARMUP_SCANS);
      }
    } finally {
      pinSelf(undefined);
    }
    const timing = (kind: 'snapshot' | 'upload'): Timing => ({
      p50: median(timed[kind]), p99: percentile(timed[kind], 0.99), count: timed[kind].length, cpuMs: isCpuKnown ? (cpu[kind] * 1000) / timed[kind].length : undefined,
    });
    result.snapshot = timing('snapshot');
    result.upload = timing('upload');
    result.ratio = result.upload.p50 / result.snapshot.p50;
    // The same packages and graph must have given the same alerts, or the two rows measure different work.
    const [submitted, uploaded] = [await computedAlerts(file, SUBMITTED_TO), await computedAlerts(file, UPLOADED_TO)];
    if (submitted.length === 0 || JSON.stringify(submitted) !== JSON.stringify(uploaded)) {
      throw new Error(`the upload's alerts (${uploaded.length}) are not the snapshot's (${submitted.length})`);
    }
    process.stderr.write(`  snapshot p50 ${result.snapshot.p50.toFixed(1)} ms, p99 ${result.snapshot.p99.toFixed(1)} ms; CycloneDX upload p50 ${result.upload.p50.toFixed(1)} ms, p99 ${result.upload.p99.toFixed(1)} ms: ×${result.ratio.toFixed(2)}; ${submitted.length} alerts each\n`);
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    await server.stop();
    removeSqliteFile(file);
  }
  return result;
}

/** The result's lines of the Markdown table (same columns as the others). */
export function sbomUploadLines(r: SbomUploadBenchResult): string[] {
  const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);
  const cpu = (t: Timing) => (t.cpuMs === undefined ? '' : `, ${ms(t.cpuMs)} ms of server CPU each`);
  const lines: string[] = [];
  if (r.bom && r.snapshot && r.upload && r.ratio !== undefined) {
    const b = r.bom;
    lines.push(`| snapshot (#30) of ${b.components.toLocaleString('en')} npm packages in one manifest, with their graph (${b.edges.toLocaleString('en')} edges, ${b.development} development-only, ${VULNERABLE} vulnerable), over ${r.advisories.toLocaleString('en')} advisories, request to 201, one client (${(b.snapshotBytes / 1024).toFixed(0)} KB; ${r.snapshot.count} scans${cpu(r.snapshot)}) | | ${ms(r.snapshot.p50)} | ${ms(r.snapshot.p99)} | | | | | | |`);
    const met = r.ratio <= RATIO_LIMIT;
    lines.push(`| the same as a CycloneDX 1.6 upload (#68) in cyclonedx-npm's shape: ${b.components.toLocaleString('en')} components, ${b.nested} nested (${(b.bytes / 2 ** 20).toFixed(1)} MB; ${r.upload.count} scans, in turn with the snapshots${cpu(r.upload)}) | | ${ms(r.upload.p50)} | ${ms(r.upload.p99)} | | | ${ms(r.snapshot.p50)} ms (#30) | ×${r.ratio.toFixed(2)} | p50 ≤ ${RATIO_LIMIT} × the snapshot's | ${met ? 'yes' : '**no**'} |`);
  }
  if (r.error) lines.push(`| ${SBOM_UPLOAD_SCENARIO} [sbom] | failed | | | | | | | | |`);
  return lines;
}
