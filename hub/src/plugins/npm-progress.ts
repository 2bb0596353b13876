/**
 * npm's `silly` log lines as install progress: which phase a line belongs to, and the line a user sees. npm names
 * its steps (`idealTree`, `fetch manifest`, `reify`, `tarball`, `ADD`) but prints no percentages; the hub shows the
 * phase and npm's latest line. Lines that only say how npm loaded its configuration are left out.
 */

/** The phases of an install, in order. */
export const INSTALL_PHASES = ["queued", "resolving", "fetching", "extracting", "checking", "recording"] as const;
export type InstallPhase = (typeof INSTALL_PHASES)[number];

/** The later of two phases: npm's lines may come late (a cache hit after a download), the phase never goes back. */
export function laterPhase(a: InstallPhase, b: InstallPhase): InstallPhase {
  return INSTALL_PHASES.indexOf(b) > INSTALL_PHASES.indexOf(a) ? b : a;
}

/** One npm line as progress: its phase when the line tells, and the text shown (npm's line without `npm silly`). */
export function npmLineProgress(raw: string): { phase?: InstallPhase; message: string } | undefined {
  const line = raw.trim();
  const body = line.replace(/^npm (silly|verbose|http|info|notice|warn|error|ERR!) /, "");
  const level = /^npm (\S+)/.exec(line)?.[1];
  if (level === "verbose" || level === "info") return undefined;
  // npm's configuration, its timers, and `npm view` printing the whole packument line by line: no progress.
  if (/^(config|logfile|packumentCache|unfinished npm timer|timing|view)\b/.test(body)) return undefined;
  const message = body.slice(0, 300);
  if (/^(idealTree|fetch manifest|placeDep|resolve)\b/.test(body)) return { phase: "resolving", message };
  if (/^http fetch GET \S+ \S+\.tgz\b/.test(body) || /^(reify|tarball)\b/.test(body)) return { phase: "fetching", message };
  if (/^http fetch GET \S+/.test(body)) return { message };
  if (/^(ADD|CHANGE|REMOVE) /.test(body) || /^(added|changed|removed|up to date)\b/.test(body)) {
    return { phase: "extracting", message };
  }
  return { message };
}
