import { z } from 'zod';

/**
 * Text both databases store and give back as sent: a NUL character (PostgreSQL refuses it,
 * SQLite keeps it) or a lone surrogate (stored as U+FFFD) would not be, so either is refused,
 * alike on both.
 */
export const STORABLE_TEXT = /^[^\u0000\uD800-\uDFFF]*$/u;
export const STORABLE_TEXT_MESSAGE = 'must be Unicode text without NUL characters';

/** A string schema that refuses what `STORABLE_TEXT` refuses. */
export const storableText = () => z.string().regex(STORABLE_TEXT, STORABLE_TEXT_MESSAGE);
