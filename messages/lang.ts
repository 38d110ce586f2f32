import { z } from 'zod';

/**
 * The reader's language, defined once: European Portuguese first, English. The tenant's setting
 * `language` picks it for notes and alerts; the console follows the reader's browser.
 */
export const LANGS = ['pt', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const LangSchema = z.enum(LANGS);

/** The BCP 47 locale Intl formats a language's numbers and dates with. */
export function localeOf(lang: Lang): string {
  return lang === 'pt' ? 'pt-PT' : 'en-GB';
}

/** Words of each language, one value per language (a table of labels). */
export type PerLang<T = string> = Record<Lang, T>;
