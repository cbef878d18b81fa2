/**
 * A pool of worker threads that share the pipeline's stores (SharedArrayBuffer-backed arrays).
 * A job's items (colliders to refit, candidate pairs to test) are shared between the workers and
 * the calling thread, which runs its share while the workers run theirs and then waits for them:
 * `step` stays synchronous. Independent items go in chunks each thread claims in turn
 * (runClaimed); jobs whose parts are merged part by part get one run each, split where the parts
 * took equal times last run (PartSplit). Workers block in Atomics.wait on the control block
 * between jobs; the arrays they share are sent again only when a store grew into new arrays, and
 * a worker returns to its event loop to receive them when a job needs them.
 *
 * Node: worker_threads (unref'd: an idle pool never keeps the process alive; destroy() ends it).
 * The worker script sits next to this module: worker.js in the package, worker.ts in the sources
 * (run through tsx, which the worker registers).
 *
 * Browsers: module Web Workers, started with `new Worker(new URL('./worker.js', import.meta.url))`
 * written out literally, the form bundlers (Vite, webpack, Parcel) recognise
 * and emit the worker for; or from the user's URL or factory (WorkerPoolOptions). A page's main
 * thread may not block: it never waits for workers to start (jobs run on it alone until they
 * have) and it waits for a job's end by spinning on Atomics.load.
 */
import {
  CTRL_BINDINGS, CTRL_BYTES, CTRL_COUNT, CTRL_DONE, CTRL_ERROR, CTRL_JOB, CTRL_MARGIN, CTRL_PARTS, CTRL_READY, CTRL_SEQUENCE,
  CTRL_ARG, CTRL_ARG2, CTRL_CHUNKS, CTRL_CLAIM, JOB_FAIL, JOB_STOP, MAX_WORKERS, controlViews, forClaimedChunks, partStart, JUDGE_AFTER_JOBS, createPollRecord, lostCore, pollWhileEqual, pollingAllowed, stopPolling, type Bindings, type Control,
} from './protocol';
import { PartSplit } from './partSplit';

export { MAX_WORKERS };

/** Chunks per thread of a claimed job: the most a thread waits for another is about one chunk's time. */
const CHUNKS_PER_PART = 16;
/** How long the calling thread waits for workers before it gives up on them, ms. */
const WORKER_START_TIMEOUT_MS = 30_000;
const WORKER_JOB_TIMEOUT_MS = 30_000;
/** How often `ready` looks at the workers' start, ms. */
const START_POLL_MS = 5;

/** `prefix.name` for each name of a list, made once per list and prefix: jobs share their arrays every frame. */
const bindingNames = new WeakMap<readonly string[], Map<string, readonly string[]>>();

/** The binding names `prefix.name` of `names` (the same array each call). */
export function bindingNamesOf(prefix: string, names: readonly string[]): readonly string[] {
  let byPrefix = bindingNames.get(names);
  if (byPrefix === undefined) bindingNames.set(names, (byPrefix = new Map()));
  let full = byPrefix.get(prefix);
  if (full === undefined) byPrefix.set(prefix, (full = names.map((name) => `${prefix}.${name}`)));
  return full;
}

/** Shares the named arrays of `arrays` with the pool as `prefix.name`. */
export function shareAll(pool: WorkerPool, prefix: string, arrays: object, names: readonly string[]): void {
  const full = bindingNamesOf(prefix, names);
  for (let i = 0; i < names.length; i++) pool.share(full[i], (arrays as Record<string, ArrayBufferView>)[names[i]]);
}

/** What the pool uses of a worker (a Web Worker or a Node worker thread). */
export interface WorkerHandle {
  /** Sends the worker its start data and the shared arrays. */
  postMessage(message: unknown): void;
  /** Ends the worker (the pipeline's destroy()). */
  terminate(): unknown;
  /** Node: lets the process exit while the worker idles. */
  unref?(): void;
  /** Browsers: a script that failed to load rejects `ready`. */
  addEventListener?(type: 'error', listener: (event: { message?: string }) => void): void;
}

/**
 * Options of `createWorkerPool`: where browsers get the worker script. By default the pool starts
 * the package's `worker.js` with `new Worker(new URL('./worker.js', import.meta.url), { type:
 * 'module' })`, which bundlers recognise and emit; give one of these when yours does not, or
 * when you serve the script yourself. Node always runs the package's worker script.
 */
export interface WorkerPoolOptions {
  /** URL of the package's worker script (`bitecs-collide/worker`), started as a module worker. */
  workerUrl?: string | URL;
  /** Makes one Web Worker running `bitecs-collide/worker`, e.g. with your bundler's worker import. */
  createWorker?: () => WorkerHandle;
  /**
   * How long, in ms, a thread keeps polling after a job before it sleeps: a worker for the next
   * job, the calling thread for the workers' end (default 0, at most MAX_SPIN_MS). Waking a
   * sleeping thread takes tens of microseconds, a polling one answers within a microsecond, so a
   * step's jobs then pay from far smaller frames (the pipeline splits them from smaller sizes).
   * A polling pool also wakes its workers when a step begins, to poll for its first job.
   * A polling thread holds its core, and with more runnable threads than cores polling made
   * frames two to four times slower than one thread: when the threads are seen losing their
   * cores (lostCore), they all sleep between jobs for a while (QUIET_MS) and the pipeline's
   * thresholds go back to those of sleeping threads (docs/design/threads.md).
   */
  spinMs?: number;
}

/** A polled job's wait for the workers up to this share of the calling thread's own part, plus WAIT_SLACK_MS, is not lost time (see judgeWait). */
const WAIT_SLACK_SHARE = 1;
const WAIT_SLACK_MS = 0.25;

/** Largest `spinMs`: a frame's jobs come within a few milliseconds of each other; polling longer only burns the core. */
export const MAX_SPIN_MS = 100;

type NodeWorkerCtor = new (script: URL | string, options: { eval?: boolean; execArgv?: string[]; workerData?: unknown }) => WorkerHandle;

/** The Node worker_threads Worker, or undefined elsewhere. */
function nodeWorkerConstructor(): NodeWorkerCtor | undefined {
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof getBuiltin !== 'function') return undefined;
  return (getBuiltin('node:worker_threads') as { Worker: NodeWorkerCtor }).Worker;
}

/** Whether this thread may block in Atomics.wait (Node's threads and Web Workers may; a browser page may not). */
function canBlock(): boolean {
  if (typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string') return true;
  const scope = (globalThis as { WorkerGlobalScope?: abstract new () => unknown }).WorkerGlobalScope;
  return scope !== undefined && globalThis instanceof scope;
}

/** Number of worker threads `workers: 'auto'` asks for: one per core beyond the calling thread's. */
export function autoWorkerCount(): number {
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency
    ?? ((globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:os') as { availableParallelism?: () => number } | undefined)?.availableParallelism?.()
    ?? 1;
  return Math.min(MAX_WORKERS, Math.max(0, cores - 1));
}

/** Whether worker threads can be started here (Node, or a browser with Worker). */
export function canStartWorkers(): boolean {
  return nodeWorkerConstructor() !== undefined || typeof (globalThis as { Worker?: unknown }).Worker === 'function';
}

/** A module Web Worker from `source`, or from the package's worker.js next to this module. */
function startWebWorker(source: WorkerPoolOptions): WorkerHandle {
  if (source.createWorker !== undefined) return source.createWorker();
  if (source.workerUrl !== undefined) return new Worker(source.workerUrl, { type: 'module' });
  // Literal, so bundlers find the worker script and emit it (the sources' worker.ts under Vite).
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}

/** The pool; see the module comment. */
export class WorkerPool {
  readonly workerCount: number;
  private readonly control: Control;
  private readonly handles: WorkerHandle[] = [];
  private readonly shared = new Map<string, ArrayBufferView>();
  /** Whether an array was replaced (or the k-DOP k changed) since the bindings were last sent. */
  private bindingsChanged = false;
  private bindingsVersion = 0;
  private kdopK = 0;
  private started = false;
  private destroyed = false;
  /** How long a thread polls before it sleeps (WorkerPoolOptions.spinMs). */
  readonly spinMs: number;
  /** The polled jobs' time and their waits for the workers beyond the slack, for lostCore. */
  private readonly waitRecord = createPollRecord();
  /** Whether this thread may block waiting for a job's end. */
  private readonly blocking = canBlock();
  /** Whether the first job waits for the workers to start (Node); Web Workers start only once their parent returns to its event loop. */
  private readonly waitsForStart = nodeWorkerConstructor() !== undefined;
  /** Why a Web Worker failed to start, once one did. */
  private startError: Error | undefined;
  /** Resolves once every worker has started; rejects when one failed to. */
  readonly ready: Promise<void>;
  /** @internal Tests: the next job makes every worker throw. */
  failNextJob = false;
  /** Jobs split with the workers so far (tests and the debug page check the threads ran). */
  jobsOnWorkers = 0;
  private readonly splits = new Map<number, PartSplit>();
  /** The parts' durations of a run, the calling thread's first. */
  private readonly durations: Float64Array;

  constructor(workerCount: number, source: WorkerPoolOptions = {}) {
    this.workerCount = workerCount;
    this.spinMs = source.spinMs ?? 0;
    this.durations = new Float64Array(workerCount + 1);
    const buffer = new SharedArrayBuffer(CTRL_BYTES);
    this.control = controlViews(buffer);
    const NodeWorker = nodeWorkerConstructor();
    const fromSources = import.meta.url.endsWith('.ts');
    const url = new URL(fromSources ? './worker.ts' : './worker.js', import.meta.url);
    for (let w = 0; w < workerCount; w++) {
      const workerData = { control: buffer, index: w, spinMs: this.spinMs };
      let handle: WorkerHandle;
      if (NodeWorker !== undefined) {
        // From the TypeScript sources (tests, scripts), the worker registers tsx itself: a worker
        // inheriting the parent's loader hooks cannot start while the parent blocks in Atomics.wait.
        handle = fromSources
          ? new NodeWorker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`, { eval: true, workerData, execArgv: [] })
          : new NodeWorker(url, { workerData, execArgv: [] });
        handle.unref?.();
      } else {
        handle = startWebWorker(source);
        handle.addEventListener?.('error', (event) => {
          this.startError ??= new Error(`bitecs-collide: a worker thread failed to start: ${event.message || 'its script did not load (check the worker URL, and that a cross-origin isolated page serves it with the same headers)'}`);
        });
        handle.postMessage({ workerData });
      }
      this.handles.push(handle);
    }
    this.ready = this.watchStart();
    this.ready.catch(() => {}); // run() throws the same error: an unread `ready` is no unhandled rejection
  }

  /**
   * Polls the workers' start. The timer keeps Node running while they start (so a script that
   * awaits `ready` at its top level is not ended with it pending), until WORKER_START_TIMEOUT_MS.
   */
  private watchStart(): Promise<void> {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const poll = () => {
        if (this.startError !== undefined) reject(this.startError);
        else if (this.destroyed) reject(new Error('bitecs-collide: the worker pool was destroyed before its threads started'));
        else if (Atomics.load(this.control.ints, CTRL_READY) >= this.workerCount) resolve();
        else if (Date.now() - started > WORKER_START_TIMEOUT_MS) reject(new Error(`bitecs-collide: the worker threads did not start within ${WORKER_START_TIMEOUT_MS} ms`));
        else setTimeout(poll, START_POLL_MS);
      };
      poll();
    });
  }

  /** Makes `array` the job array `name` (sent to the workers before the next job when it is new). */
  share(name: string, array: ArrayBufferView): void {
    if (this.shared.get(name) === array) return;
    this.shared.set(name, array);
    this.bindingsChanged = true;
  }

  /** Sets the k of the collider store's k-DOPs (sent with the arrays). */
  setKdopK(k: number): void {
    if (k !== this.kdopK) {
      this.kdopK = k;
      this.bindingsChanged = true;
    }
  }

  /**
   * Sends the shared arrays again when any was replaced since they were last sent: a flag, not a
   * comparison of every array per job (a shared hitbox history alone is hundreds of arrays).
   */
  private sendBindings(): void {
    if (!this.bindingsChanged) return;
    this.bindingsChanged = false;
    this.bindingsVersion++;
    const bindings: Bindings = { version: this.bindingsVersion, kdopK: this.kdopK, arrays: Object.fromEntries(this.shared) };
    for (const handle of this.handles) handle.postMessage({ bindings });
  }

  /**
   * Whether a job now runs on the workers too. Not in a page whose workers have not all started
   * yet: a job then runs whole on the calling thread (see run), which suits jobs whose callback
   * covers the items it is given, but not jobs whose parts merge per-part results afterwards.
   */
  get workersRunning(): boolean {
    return !this.destroyed && (this.started || this.waitsForStart || Atomics.load(this.control.ints, CTRL_READY) >= this.workerCount);
  }

  /** The split of job kind `job`'s items between the parts, kept from run to run. */
  splitOf(job: number): PartSplit {
    let split = this.splits.get(job);
    if (split === undefined) this.splits.set(job, (split = new PartSplit(this.workerCount + 1)));
    return split;
  }

  /**
   * Runs job `job`, whose items are independent (each writes only its own results), in chunks the
   * threads claim one at a time (forClaimedChunks), so none waits for another longer than about a
   * chunk: `each(from, to)` runs the calling thread's chunks. Otherwise as `run`.
   */
  runClaimed(job: number, count: number, margin: number, arg: number, arg2: number, each: (from: number, to: number) => void): void {
    const ints = this.control.ints;
    ints[CTRL_CHUNKS] = Math.max(1, Math.min(count, CHUNKS_PER_PART * (this.workerCount + 1)));
    Atomics.store(ints, CTRL_CLAIM, 0);
    this.run(job, count, margin, arg, arg2, () => forClaimedChunks(ints, count, each), this.splitOf(job), false, true);
  }

  /** @internal Tests: every job kind's split made uneven at random (see PartSplit.scramble). */
  scrambleSplits(rand: () => number): void {
    for (const split of this.splits.values()) split.scramble(rand);
  }

  /**
   * Runs job `job` over `count` items: part 0 on this thread (`own(from, to)`), the others on the
   * workers, then waits for them. The items are split at `split`'s bounds (by default the job
   * kind's), first rebalanced from its last run unless `rebalance` is false (a job whose parts
   * must cover the same items as the last one's); the run's durations are recorded in it. Throws
   * when a worker caught an error (its message included) or did not answer in time.
   */
  run(job: number, count: number, margin: number, arg: number, arg2: number, own: (from: number, to: number) => void, split = this.splitOf(job), rebalance = true, claimed = false): void {
    if (this.destroyed) throw new Error('bitecs-collide: the worker pool was destroyed');
    const ints = this.control.ints;
    if (!claimed) ints[CTRL_CHUNKS] = 0;
    if (!this.started) {
      if (this.startError !== undefined) throw this.startError;
      if (!this.waitsForStart && Atomics.load(ints, CTRL_READY) < this.workerCount) {
        own(0, count); // the same results, on this thread alone
        return;
      }
      waitAtLeast(ints, CTRL_READY, this.workerCount, WORKER_START_TIMEOUT_MS, 'start', this.blocking);
      this.started = true;
    }
    this.sendBindings();
    const parts = this.workerCount + 1;
    if (rebalance) split.rebalance();
    this.control.bounds.set(split.bounds);
    ints[CTRL_JOB] = this.failNextJob ? JOB_FAIL : job;
    this.failNextJob = false;
    ints[CTRL_BINDINGS] = this.bindingsVersion;
    ints[CTRL_COUNT] = count;
    ints[CTRL_PARTS] = parts;
    ints[CTRL_ARG] = arg;
    ints[CTRL_ARG2] = arg2;
    this.control.floats[CTRL_MARGIN] = margin;
    Atomics.store(ints, CTRL_DONE, 0);
    Atomics.store(ints, CTRL_ERROR, 0);
    Atomics.add(ints, CTRL_SEQUENCE, 1);
    Atomics.notify(ints, CTRL_SEQUENCE);
    this.jobsOnWorkers++;
    let ownError: unknown;
    const start = performance.now();
    try {
      own(0, partStart(count, split.bounds, 1));
    } catch (error) {
      ownError = error;
    }
    const durations = this.durations;
    const ownEnd = performance.now();
    durations[0] = ownEnd - start;
    const polls = this.polls;
    if (polls) this.pollDone();
    waitAtLeast(ints, CTRL_DONE, this.workerCount, WORKER_JOB_TIMEOUT_MS, 'finish a job', this.blocking);
    if (polls && this.jobsOnWorkers > JUDGE_AFTER_JOBS && this.workersPolled()) this.judgeWait(durations[0], performance.now() - ownEnd);
    if (ownError !== undefined) throw ownError;
    for (let w = 1; w < parts; w++) durations[w] = this.control.partMs[w];
    split.record(durations);
    if (Atomics.load(ints, CTRL_ERROR) !== 0) {
      const text = this.control.errorText;
      const end = text.indexOf(0);
      throw new Error(`bitecs-collide: a worker thread failed: ${new TextDecoder().decode(text.slice(0, end < 0 ? text.length : end))}`);
    }
  }

  /**
   * Whether the threads poll between jobs now: `spinMs` is positive and they were not found
   * losing their cores in the last QUIET_MS (see lostCore).
   */
  get polls(): boolean {
    return this.spinMs > 0 && pollingAllowed(this.control);
  }

  /**
   * Counts a polled job's wait for the workers beyond WAIT_SLACK_SHARE of its own part plus
   * WAIT_SLACK_MS as lost: parts split to end together end that close unless a worker lost its
   * core mid-job. Too much lost (lostCore) and the threads stop polling for QUIET_MS.
   */
  private judgeWait(ownMs: number, waitMs: number): void {
    const record = this.waitRecord;
    record[0] += ownMs + waitMs;
    record[1] += Math.max(0, waitMs - WAIT_SLACK_SHARE * ownMs - WAIT_SLACK_MS);
    if (lostCore(record)) stopPolling(this.control);
  }

  /**
   * Wakes sleeping workers to poll for the jobs to come (a step begins), when the threads poll:
   * the tens of microseconds of their wake-up then pass while the calling thread works.
   */
  wake(): void {
    if (this.started && this.polls) Atomics.notify(this.control.ints, CTRL_SEQUENCE);
  }

  /** Whether every worker took the current job while polling (none had to be woken). */
  private workersPolled(): boolean {
    const slept = this.control.slept;
    for (let p = 1; p <= this.workerCount; p++) if (slept[p] !== 0) return false;
    return true;
  }

  /** Polls for the workers' end of the current job for up to `spinMs` (then run() sleeps on it). */
  private pollDone(): void {
    const ints = this.control.ints;
    for (let done = Atomics.load(ints, CTRL_DONE); done < this.workerCount; done = Atomics.load(ints, CTRL_DONE)) {
      // Unjudged: the gaps the calling thread sees include its own garbage collection.
      if (!pollWhileEqual(ints, CTRL_DONE, done, this.spinMs)) return;
    }
  }

  /** Ends the workers (the pool cannot run jobs afterwards). */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    const ints = this.control.ints;
    ints[CTRL_JOB] = JOB_STOP;
    Atomics.add(ints, CTRL_SEQUENCE, 1);
    Atomics.notify(ints, CTRL_SEQUENCE);
    for (const handle of this.handles) handle.terminate();
  }
}

/**
 * Waits until ints[index] >= target: blocking where allowed, else spinning on Atomics.load (a
 * page's main thread; the workers' parts end within the frame, so the spin is that short).
 */
function waitAtLeast(ints: Int32Array, index: number, target: number, timeoutMs: number, what: string, block: boolean): void {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = Atomics.load(ints, index);
    if (value >= target) return;
    if (performance.now() > deadline) throw new Error(`bitecs-collide: worker threads did not ${what} within ${timeoutMs} ms`);
    if (block) Atomics.wait(ints, index, value, 20);
  }
}
