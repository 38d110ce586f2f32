import { z } from 'zod';
import { LANGS, type Lang, type PerLang } from './lang';

/**
 * The shape of every catalogue of words for people (the mapping's pattern, law/mapping-messages.ts,
 * made one for all): a code, its typed parameters (the facts, as data), and one function per
 * language that words them. A catalogue is written per audience (the owner's notes and alerts, the
 * console's reader, the operator at the doctor and the command line), so a missing language or a
 * wrong parameter is a type error where the words live, and a message stored as data words itself
 * again in any language.
 */
export interface Words<P> {
  params: z.ZodType<P>;
  pt: (p: P) => string;
  en: (p: P) => string;
}

/** One entry: its parameters' shape and its words in each language. */
export function words<Shape extends z.ZodRawShape>(shape: Shape, say: Record<Lang, (p: z.output<z.ZodObject<Shape>>) => string>): Words<z.output<z.ZodObject<Shape>>> {
  return { params: z.object(shape) as unknown as z.ZodType<z.output<z.ZodObject<Shape>>>, pt: say.pt, en: say.en };
}

/** An entry without parameters. */
export function fixed(say: Record<Lang, string>): Words<Record<string, never>> {
  return { params: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>, pt: () => say.pt, en: () => say.en };
}

/** Any entry (a function of `never` accepts every entry's params); each entry keeps its own type in `ParamsOf`. */
interface AnyWords {
  params: z.ZodType;
  pt: (p: never) => string;
  en: (p: never) => string;
}
export type ParamsOf<W> = W extends { pt: (p: infer P) => string } ? P : never;

/** A message of a catalogue: a code and its params, data that words itself in any language later. */
export type MessageOf<C extends Record<string, AnyWords>> = { [K in keyof C & string]: { code: K; params: ParamsOf<C[K]> } }[keyof C & string];

/** Codes without parameters: `say(lang, code)` needs none. */
type NoParams<C extends Record<string, AnyWords>> = { [K in keyof C]: ParamsOf<C[K]> extends Record<string, never> ? K : never }[keyof C];

export interface Catalogue<C extends Record<string, AnyWords>> {
  entries: C;
  /** The words of `code` in `lang`. */
  say<K extends keyof C & string>(lang: Lang, code: K, ...params: K extends NoParams<C> ? [] | [ParamsOf<C[K]>] : [ParamsOf<C[K]>]): string;
  /** A stored message (code and params as data) in `lang`. */
  text(lang: Lang, message: MessageOf<C>): string;
  /** The message, typed. */
  message<K extends keyof C & string>(code: K, params: ParamsOf<C[K]>): MessageOf<C>;
  /** Reads a message back from data (JSON): undefined for a code or params this version does not know. */
  read(input: unknown): MessageOf<C> | undefined;
}

const Stored = z.object({ code: z.string(), params: z.record(z.string(), z.unknown()).optional().default({}) });

export function catalogue<C extends Record<string, AnyWords>>(entries: C): Catalogue<C> {
  const entryOf = (code: string): Words<unknown> | undefined => (Object.prototype.hasOwnProperty.call(entries, code) ? (entries[code] as unknown as Words<unknown>) : undefined);
  const sayIn = (lang: Lang, code: string, params: unknown): string => {
    const entry = entryOf(code);
    if (!entry) return code;
    return entry[lang](params ?? {});
  };
  return {
    entries,
    say: (lang, code, ...params) => sayIn(lang, code, params[0]),
    text: (lang, message) => sayIn(lang, message.code, message.params),
    message: (code, params) => ({ code, params }) as MessageOf<C>,
    read: (input) => {
      const stored = Stored.safeParse(input);
      if (!stored.success) return undefined;
      const entry = entryOf(stored.data.code);
      const params = entry?.params.safeParse(stored.data.params);
      return params?.success ? ({ code: stored.data.code, params: params.data } as MessageOf<C>) : undefined;
    },
  };
}

/** A part of a message that may itself be worded per language (a shop call's problem inside "could not check: …"). */
export type Part = string | PerLang;
/** A message's parameters where each text may be given per language. */
export type PartsOf<P> = { [K in keyof P]: P[K] extends string ? Part | P[K] : P[K] };

function partIn(lang: Lang, part: unknown): unknown {
  return typeof part === 'object' && part !== null && 'en' in part && 'pt' in part ? (part as PerLang)[lang] : part;
}

/**
 * Words a catalogue's entries in every language at once, for a reader who keeps both (a doctor's
 * check carries `pt` beside the English): `inEveryLang(DOCTOR)('could-not-check', { detail })`.
 * A part given per language is taken in each.
 */
export function inEveryLang<C extends Record<string, AnyWords>>(said: Catalogue<C>) {
  return <K extends keyof C & string>(code: K, ...params: ParamsOf<C[K]> extends Record<string, never> ? [] : [PartsOf<ParamsOf<C[K]>>]): PerLang => {
    const given = (params[0] ?? {}) as Record<string, unknown>;
    const inLang = (lang: Lang) => Object.fromEntries(Object.entries(given).map(([key, value]) => [key, partIn(lang, value)]));
    return Object.fromEntries(LANGS.map((lang) => [lang, said.text(lang, said.message(code, inLang(lang) as ParamsOf<C[K]>))])) as PerLang;
  };
}
