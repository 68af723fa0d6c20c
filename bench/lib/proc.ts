import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/server/lib/free-port.ts';

export { freePort };

/**
 * Child processes and temp folders of the bench, so that every exit path (success, error, Ctrl-C)
 * can stop them: SIGTERM, then SIGKILL after 5 s.
 */
export type Child = {
  name: string;
  proc: ChildProcess;
  /** The last lines of stdout/stderr, for error messages. */
  output: string[];
  exited: Promise<number | null>;
};

const children = new Set<Child>();
const tempDirs = new Set<string>();
const failed = new WeakSet<ChildProcess>();
const hooks = new Set<() => void | Promise<void>>();

/** Registers an extra clean-up step (e.g. killing a browser); returns its removal. */
export function onCleanUp(hook: () => void | Promise<void>): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}

export const STOP_GRACE_MS = 5_000;

export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  // As root, the embedded PostgreSQL runs as "postgres", which must be able to enter DATA_DIR.
  chmodSync(dir, 0o711);
  tempDirs.add(dir);
  return dir;
}

export function startChild(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined> },
): Child {
  const proc = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      output.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
      if (output.length > 40) output.shift();
    }
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const child: Child = {
    name,
    proc,
    output,
    exited: new Promise((resolve) => {
      proc.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : null)));
      proc.once('error', (error) => {
        output.push(String(error));
        failed.add(proc);
        resolve(null);
      });
    }),
  };
  children.add(child);
  void child.exited.then(() => children.delete(child));
  return child;
}

function running(child: Child): boolean {
  return child.proc.exitCode === null && child.proc.signalCode === null && !failed.has(child.proc);
}

/** SIGTERM, wait up to 5 s, then SIGKILL. Resolves when the process has exited. */
export async function stopChild(child: Child): Promise<void> {
  if (running(child)) {
    child.proc.kill('SIGTERM');
    const timer = sleep(STOP_GRACE_MS).then(() => 'timeout' as const);
    if ((await Promise.race([child.exited, timer])) === 'timeout' && running(child)) {
      console.warn(`bench: ${child.name} did not exit within 5 s of SIGTERM; sending SIGKILL`);
      child.proc.kill('SIGKILL');
      await child.exited;
    }
  }
  children.delete(child);
}

/**
 * Processes whose command line names one of `dirs` (by default our temp folders): the embedded
 * PostgreSQL a crashed or killed server may leave behind. Only processes we started ourselves can
 * name a fresh mkdtemp folder.
 */
function strayProcesses(dirs: Iterable<string> = tempDirs): number[] {
  const pids: number[] = [];
  const wanted = [...dirs];
  if (wanted.length === 0) return pids;
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (wanted.some((dir) => cmdline.includes(dir))) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/**
 * Waits up to `graceMs` for processes naming `dirs` to end by themselves, then SIGTERM, 5 s, SIGKILL.
 * Returns how many had to be stopped.
 */
export async function stopStrays(dirs: Iterable<string> = tempDirs, graceMs = 0): Promise<number> {
  const wanted = [...dirs];
  const settle = Date.now() + graceMs;
  while (Date.now() < settle && strayProcesses(wanted).length > 0) await sleep(100);
  const pids = strayProcesses(wanted);
  if (pids.length === 0) return 0;
  console.warn(`bench: stopping ${pids.length} leftover process(es) of the bench: ${pids.join(', ')}`);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {}
  }
  const deadline = Date.now() + STOP_GRACE_MS;
  while (Date.now() < deadline && strayProcesses(wanted).length > 0) await sleep(100);
  for (const pid of strayProcesses(wanted)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  return pids.length;
}

/** Stops every child still running and removes every temp folder. Safe to call more than once. */
export async function cleanUp(): Promise<void> {
  for (const hook of [...hooks]) {
    hooks.delete(hook);
    try {
      await hook();
    } catch (error) {
      console.warn(`bench: clean-up step failed: ${(error as Error).message}`);
    }
  }
  await Promise.all([...children].map((child) => stopChild(child)));
  await stopStrays();
  for (const dir of tempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      console.warn(`bench: could not remove ${dir}: ${(error as Error).message}`);
    }
  }
  tempDirs.clear();
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/** Polls `url` until it answers 200; throws if the child exits or the time runs out. */
export async function waitFor200(
  url: string,
  child: Child,
  options: { timeoutMs: number; intervalMs?: number },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (!running(child)) {
      throw new Error(
        `${child.name} exited (code ${child.proc.exitCode ?? child.proc.signalCode}) before ${url} answered 200:\n` +
          child.output.slice(-15).join('\n'),
      );
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {}
    await sleep(options.intervalMs ?? 50);
  }
  throw new Error(
    `${child.name}: ${url} did not answer 200 within ${options.timeoutMs / 1000} s:\n${child.output.slice(-15).join('\n')}`,
  );
}

/** Resident set size of a process in bytes (VmRSS of /proc/<pid>/status). */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) * 1024;
}

/** CPU time (clock ticks) and parentage of every process, from /proc/<pid>/stat. */
export type CpuSnapshot = Map<number, { comm: string; ppid: number; ticks: number }>;

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export function cpuSnapshot(): CpuSnapshot {
  const snapshot: CpuSnapshot = new Map();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return snapshot;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      // After "(comm)": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
      const fields = stat.slice(close + 2).split(' ');
      snapshot.set(Number(entry), {
        comm,
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {}
  }
  return snapshot;
}

/**
 * CPU seconds that processes outside the bench used between two snapshots: not this process or
 * its descendants, and not PostgreSQL (whose backends do the servers' queries). A busy machine
 * (another test run, a build) makes load figures meaningless; this says when it happened.
 */
export function foreignCpu(before: CpuSnapshot, after: CpuSnapshot): { seconds: number; top: string[] } {
  const ours = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
      if (p === process.pid) return true;
      const parent = after.get(p)?.ppid ?? before.get(p)?.ppid;
      if (parent === undefined) return false;
      p = parent;
    }
    return false;
  };
  const byName = new Map<string, number>();
  const named = new Set(strayProcesses());
  let total = 0;
  for (const [pid, now] of after) {
    if (ours(pid) || now.comm === 'postgres') continue;
    const used = (now.ticks - (before.get(pid)?.ticks ?? 0)) / TICKS_PER_SECOND;
    if (used <= 0) continue;
    // Chromium's zygote and renderers are re-parented away from us; they name our profile folder.
    if (named.has(pid)) continue;
    total += used;
    byName.set(now.comm, (byName.get(now.comm) ?? 0) + used);
  }
  const top = [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`);
  return { seconds: total, top };
}
