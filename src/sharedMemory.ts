/**
 * Typed arrays that worker threads can share. A store created shared keeps its arrays on
 * SharedArrayBuffers, and every array it grows into is shared too (`allocateLike`), so a thread
 * pool can read and write the same stores; elsewhere arrays are ordinary. Where the platform
 * offers no SharedArrayBuffer (a browser page that is not cross-origin isolated), nothing is
 * shared and the pipeline runs on one thread.
 */

/** Any typed array a store holds. */
export type SharableArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Int16Array | Uint8Array | Int8Array;

type SharableCtor<T extends SharableArray> = { new (length: number): T; new (buffer: ArrayBufferLike): T; readonly BYTES_PER_ELEMENT: number };

/**
 * Whether this platform can share memory between threads: SharedArrayBuffer exists and, in a
 * browser, the page is cross-origin isolated (the COOP / COEP headers).
 */
export function canShareMemory(): boolean {
  if (typeof SharedArrayBuffer !== 'function') return false;
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  return isolated !== false;
}

/** A zeroed array of `length` elements of `ctor`, on a SharedArrayBuffer when `shared`. */
export function allocate<T extends SharableArray>(ctor: SharableCtor<T>, length: number, shared: boolean): T {
  return shared ? new ctor(new SharedArrayBuffer(length * ctor.BYTES_PER_ELEMENT)) : new ctor(length);
}

/** Whether `arr` lives on a SharedArrayBuffer. */
export function isShared(arr: SharableArray): boolean {
  return typeof SharedArrayBuffer === 'function' && arr.buffer instanceof SharedArrayBuffer;
}

/** Whether every named array of `arrays` lives on a SharedArrayBuffer. */
export function allShared(arrays: object, names: readonly string[]): boolean {
  for (const name of names) if (!isShared((arrays as Record<string, SharableArray>)[name])) return false;
  return true;
}

/** A zeroed array of `arr`'s type with `length` elements, shared when `arr` is. */
export function allocateLike<T extends SharableArray>(arr: T, length: number): T {
  return allocate(arr.constructor as SharableCtor<T>, length, isShared(arr));
}

/** A copy of `arr` on a SharedArrayBuffer. */
export function sharedCopy<T extends SharableArray>(arr: T): T {
  const copy = allocate(arr.constructor as SharableCtor<T>, arr.length, true);
  copy.set(arr as never);
  return copy;
}
