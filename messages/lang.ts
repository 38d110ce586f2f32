import { z } from 'zod';

/**
 * The reader's language, defined once: European Portuguese first, English. The tenant's setting
 * `language` picks it for notes and alerts; the console follows the reader's browser.
 */
export const LANGS = ['pt', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const LangSchema = z.enum(LANGS);

/** A language a person or a file named ("pt", "en"), or undefined for anything else. */
export function readLang(value: unknown): Lang | undefined {
  const parsed = LangSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const LOCALES: Record<Lang, string> = { pt: 'pt-PT', en: 'en-GB' };

/** The BCP 47 locale Intl formats a language's numbers and dates with. */
export function localeOf(lang: Lang): string {
  return LOCALES[lang];
}

/** Words of each language, one value per language (a table of labels). */
export type PerLang<T = string> = Record<Lang, T>;
