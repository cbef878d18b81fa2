import { expect } from 'vitest';
import { CollideInputError } from '../../src/errors';

/** The message of the CollideInputError `fn` throws ('no error' when it throws none). */
export function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CollideInputError);
    return (error as Error).message;
  }
  return 'no error';
}
