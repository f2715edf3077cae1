/**
 * Modules loaded by file (a worker thread's entry, the projections a worker imports): the code runs as
 * TypeScript through tsx in development and compiled to JavaScript in dist/ in production, and such a
 * path, unlike an import, is not rewritten by the compiler.
 */
import path from 'node:path';

/** Whether the module at `url` (its import.meta.url) runs as TypeScript source, through tsx. */
export const runsFromSource = (url: string): boolean => url.endsWith('.ts');

/** The module `name` (a relative path without extension) beside the module at `url`, in the form that runs. */
export const siblingModule = (url: string, name: string): URL => new URL(`${name}${path.extname(new URL(url).pathname)}`, url);
