import { ApiError } from '../src/types';

/** The ApiError `fn` throws; fails the test when it throws something else or nothing. */
export function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}
