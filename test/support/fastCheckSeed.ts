/**
 * With FC_SEED set (.ci/run sets it), every fast-check property without a seed of its own runs
 * from that seed, so a CI run is reproducible; without it each run draws new cases, so local runs
 * keep exploring.
 */
import fc from 'fast-check';

const seed = process.env.FC_SEED;
if (seed !== undefined && seed !== '') fc.configureGlobal({ seed: Number(seed) });
