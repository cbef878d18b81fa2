/**
 * The debug view: the demo scene (scenes/demo.ts) stepped at a fixed 1/60 s per animation
 * frame and drawn with three.js. Query parameters: seed=N (default 7), fox=0 (leave the Fox out),
 * paused=1 (start paused), frames=K (advance K steps at once, then pause), workers=N or 'auto'
 * (the pipeline's worker threads; default none). The page publishes its state for tests on
 * document.body.dataset: frame, contacts, touching, rayHits, pairs (the touching pairs, "a-b"
 * separated by spaces), contactBits (a hash of the contacts' entities and manifold bits),
 * isolated ('1' when crossOriginIsolated), threads (the threads the pipeline runs on),
 * jobsOnWorkers (refits and narrow phases split with the workers so far), webgl ('1'
 * or '0'), ready ('1' once set up and the K frames are done).
 */
import { WebIO } from '@gltf-transform/core';
import { HIT_GROUP_NAMES } from '../src/character/hitGroups';
import foxUrl from '../scenes/assets/Fox.glb?url';
import { createDemoScene, type CharacterKind, type DemoScene } from '../scenes/demo';
import { createWorkerPool } from '../systems/parallel/workerPool';
import { CONTACT_COUNT, CONTACT_POINTS, CONTACT_POINT_STRIDE, CONTACT_STRIDE } from '../src/contacts/manifold';
import { foxKind } from '../scenes/foxKind';
import { treeBuildWasmAvailable } from '../src/wasm/treeBuild';
import { LAYERS } from './layers';
import { DebugView } from './view';

const params = new URLSearchParams(location.search);
const seed = Number(params.get('seed') ?? 7);
const frames = Math.max(0, Math.floor(Number(params.get('frames') ?? 0)));
const withFox = params.get('fox') !== '0';
const workers = params.get('workers') === 'auto' ? 'auto' : Math.max(0, Math.floor(Number(params.get('workers') ?? 0)));

/** Ray hits listed in the panel per frame. */
const MAX_LISTED_HITS = 5;

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = element('status');

function countRayHits(demo: DemoScene): number {
  let hits = 0;
  for (let r = 0; r < demo.rays.count; r++) if (demo.rays.hitbox[r] >= 0) hits++;
  return hits;
}

/** The touching pairs as "a-b a-b ...". */
function pairList(demo: DemoScene): string {
  const { touchingPairs } = demo.pipeline;
  const out: string[] = [];
  for (let i = 0; i < touchingPairs.count; i++) out.push(`${touchingPairs.a[i]}-${touchingPairs.b[i]}`);
  return out.join(' ');
}

/** FNV-1a over the contacts' entities and the defined part of their manifolds: equal only for bit-identical contacts. */
function contactBits(demo: DemoScene): string {
  const { contacts } = demo.pipeline;
  const bits = new Uint32Array(contacts.manifold.buffer, contacts.manifold.byteOffset, contacts.manifold.length);
  let hash = 0x811c9dc5;
  const mix = (word: number) => (hash = Math.imul(hash ^ word, 0x01000193));
  for (let i = 0; i < contacts.count; i++) {
    mix(contacts.a[i]);
    mix(contacts.b[i]);
    const m = i * CONTACT_STRIDE;
    const end = m + CONTACT_POINTS + CONTACT_POINT_STRIDE * contacts.manifold[m + CONTACT_COUNT];
    for (let k = m; k < end; k++) mix(bits[k]);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** Counters and timings on screen and in document.body.dataset. */
function showState(demo: DemoScene, drawMs: number): void {
  const { pipeline } = demo;
  const data = document.body.dataset;
  data.frame = String(demo.frame);
  data.contacts = String(pipeline.contacts.count);
  data.touching = String(pipeline.touchingPairs.count);
  data.rayHits = String(countRayHits(demo));
  data.pairs = pairList(demo);
  data.contactBits = contactBits(demo);
  data.jobsOnWorkers = String(pipeline.parallel?.jobsOnWorkers ?? 0);
  element('frame').textContent = data.frame;
  element('contact-count').textContent = data.contacts;
  element('touching-count').textContent = data.touching;
  element('ray-hits').textContent = `${data.rayHits}/${demo.rays.count}`;
  element('events').textContent = `${pipeline.events.begin.count} began, ${pipeline.events.end.count} ended this frame`;
  const { rays } = demo;
  const hits: string[] = [];
  for (let r = 0; r < rays.count && hits.length < MAX_LISTED_HITS; r++) {
    if (rays.hitbox[r] >= 0) hits.push(`${demo.characterName[rays.character[r]]}: ${demo.boneName[rays.bone[r]]} (${HIT_GROUP_NAMES[rays.group[r]]})`);
  }
  element('ray-list').textContent = hits.join('\n');
  const t = pipeline.timings;
  const row = (name: string, ms: number) => `${name.padEnd(14)}${ms.toFixed(3).padStart(8)} ms`;
  element('timings').textContent = [
    row('refitVolumes', t.refitVolumes),
    row('boneHitboxes', t.boneHitboxes),
    row('broadPhase', t.broadPhase),
    row('narrowPhase', t.narrowPhase),
    row('rays', demo.rayMs),
    row('draw', drawMs),
  ].join('\n');
}

/** The renderer, or undefined (with a note on the page) when WebGL is unavailable: the simulation runs on. */
function createView(demo: DemoScene): DebugView | undefined {
  const canvas = element<HTMLCanvasElement>('view');
  // Probe first: three.js reports a failed context as an error, and no WebGL is a supported mode here.
  const probe = document.createElement('canvas');
  if (!probe.getContext('webgl2') && !probe.getContext('webgl')) {
    status.textContent = 'WebGL is unavailable: simulating without drawing.';
    return undefined;
  }
  return new DebugView(canvas, demo);
}

/** The threads control: a reload with the chosen `workers` parameter (a pipeline keeps its threads for life). */
function setUpThreads(demo: DemoScene): void {
  const select = element<HTMLSelectElement>('workers');
  const chosen = String(workers);
  if (!Array.from(select.options, (option) => option.value).includes(chosen)) select.add(new Option(`${chosen} workers`, chosen));
  select.value = chosen;
  select.addEventListener('change', () => {
    const next = new URLSearchParams(location.search);
    next.set('workers', select.value);
    location.search = next.toString();
  });
  const threads = demo.pipeline.workers + 1;
  document.body.dataset.isolated = crossOriginIsolated ? '1' : '0';
  document.body.dataset.threads = String(threads);
  const treeWasm = treeBuildWasmAvailable();
  document.body.dataset.treeWasm = treeWasm ? '1' : '0';
  element('threads').textContent = `${crossOriginIsolated ? 'cross-origin isolated' : 'not cross-origin isolated (no SharedArrayBuffer)'} · ${threads === 1 ? '1 thread' : `${threads} threads (the page and ${threads - 1} workers)`} · tree builds: ${treeWasm ? 'WebAssembly' : 'JavaScript'}`;
}

async function main(): Promise<void> {
  const extra: CharacterKind[] = [];
  if (withFox) extra.push(foxKind(await new WebIO().read(foxUrl)));
  const pool = workers === 0 ? undefined : createWorkerPool(workers);
  const demo = createDemoScene({ seed, extraCharacters: extra, workers: pool });
  if (demo.pipeline.parallel !== undefined) {
    // The scene is far below the sizes where threads pay (see the guide): split every frame, so
    // the page runs the threads it shows.
    demo.pipeline.parallel.minRefit = 1;
    demo.pipeline.parallel.minNarrow = 1;
  }
  // Until the workers have started, steps run on the page's thread alone: wait, so every frame shown uses them.
  await pool?.ready;
  setUpThreads(demo);
  const view = createView(demo);
  document.body.dataset.webgl = view ? '1' : '0';

  let paused = params.get('paused') === '1' || frames > 0;
  for (let k = 0; k < frames; k++) demo.step();

  const pauseButton = element<HTMLButtonElement>('pause');
  const setPaused = (value: boolean) => {
    paused = value;
    pauseButton.textContent = paused ? 'Play' : 'Pause';
    document.body.dataset.paused = paused ? '1' : '0';
  };
  setPaused(paused);
  const layers = element('layers');
  for (const layer of LAYERS) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = layer.visible;
    box.dataset.layer = layer.key;
    box.addEventListener('change', () => view?.setVisible(layer.key, box.checked));
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = `#${layer.color.toString(16).padStart(6, '0')}`;
    label.append(box, swatch, layer.label);
    layers.append(label);
  }

  let drawMs = 0;
  const draw = () => {
    const t0 = performance.now();
    view?.draw();
    drawMs = performance.now() - t0;
    showState(demo, drawMs);
  };
  pauseButton.addEventListener('click', () => setPaused(!paused));
  element('step').addEventListener('click', () => {
    setPaused(true);
    demo.step();
    draw();
  });
  draw();
  document.body.dataset.ready = '1';
  const loop = () => {
    if (!paused) {
      demo.step();
      draw();
    } else {
      view?.render(); // camera moves while paused
    }
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

main().catch((error: unknown) => {
  status.textContent = `Failed: ${String(error)}`;
  console.error(error);
});
