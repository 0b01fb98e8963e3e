/**
 * The limits of governance inputs, defined once: the domain checks them and the HTTP API
 * documents and validates its parameters with the same numbers.
 *
 * @example
 * if (environment.length > MAX_ENVIRONMENT_LENGTH) throw new Error('too long');
 */
export { MAX_ENVIRONMENT_LENGTH } from '@dcg/contract-schema';

/** Longest identifier accepted in a path or filter (policy, contract, template, system ids). */
export const MAX_ID_LENGTH = 500;

/** Items of a list page when the caller names no `limit`. */
export const DEFAULT_PAGE_SIZE = 50;

/** Most items of one list page (`limit`). */
export const MAX_PAGE_SIZE = 1000;

/** Largest `offset` of a list page. */
export const MAX_PAGE_OFFSET = 1_000_000_000;
