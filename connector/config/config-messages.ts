import { z } from 'zod';
import type { Lang } from '../../law/mapping-messages';

/**
 * What a person reads when the tenants file (or its .env) is refused: codes with parameters, worded
 * in European Portuguese and English from this one catalogue (the pattern of the mapping's
 * `mappingText`). Read by whoever starts the connector, runs the doctor or a backfill, or presses
 * "reload" in the console, in the language of the tenants (settings.language) or the one they chose.
 */

interface Entry<P> {
  params: z.ZodType<P>;
  en: (p: P) => string;
  pt: (p: P) => string;
}

function entry<Shape extends z.ZodRawShape>(shape: Shape, en: (p: z.output<z.ZodObject<Shape>>) => string, pt: (p: z.output<z.ZodObject<Shape>>) => string): Entry<z.output<z.ZodObject<Shape>>> {
  return { params: z.object(shape) as unknown as z.ZodType<z.output<z.ZodObject<Shape>>>, en, pt };
}

const S = z.string();
const OPT = z.string().optional();

/** Where the environment variables were looked for: the .env file read (if any) and the process's environment. */
const lookedIn = {
  en: (envFile: string | undefined) => (envFile ? `looked in ${envFile} and in the process's environment` : "looked in the process's environment; no .env file beside the tenants file, none given with --env-file"),
  pt: (envFile: string | undefined) => (envFile ? `procurada em ${envFile} e no ambiente do processo` : 'procurada no ambiente do processo; não há ficheiro .env junto do ficheiro dos tenants nem indicado com --env-file'),
};

/** Why a secret is easy to guess (secret-ref.ts secretWeakness). */
const WEAK_WHY: Record<Lang, Record<'repeated' | 'few-characters' | 'sequence' | 'common', string>> = {
  en: { repeated: 'the same characters repeated', 'few-characters': 'too few different characters', sequence: 'a run of the alphabet, the digits or a keyboard row', common: 'a common word with digits or signs around it' },
  pt: { repeated: 'os mesmos caracteres repetidos', 'few-characters': 'poucos caracteres diferentes', sequence: 'uma sequência do alfabeto, dos algarismos ou de uma fila do teclado', common: 'uma palavra comum com algarismos ou sinais à volta' },
};

const CATALOGUE = {
  'env-missing': entry(
    { name: S, envFile: OPT },
    (p) => `the environment variable ${p.name} is not set (${lookedIn.en(p.envFile)}): add ${p.name}=… to the .env file`,
    (p) => `a variável de ambiente ${p.name} não está definida (${lookedIn.pt(p.envFile)}): acrescente ${p.name}=… ao ficheiro .env`,
  ),
  'env-file-unreadable': entry(
    { file: S, reason: S },
    (p) => `cannot read the .env file ${p.file}: ${p.reason}`,
    (p) => `não foi possível ler o ficheiro .env ${p.file}: ${p.reason}`,
  ),
  'file-unreadable': entry(
    { file: S, reason: S },
    (p) => `cannot read the file: ${p.reason}`,
    (p) => `não foi possível ler o ficheiro: ${p.reason}`,
  ),
  'not-parseable': entry(
    { format: S, reason: S },
    (p) => `not valid ${p.format}: ${p.reason}`,
    (p) => `não é ${p.format} válido: ${p.reason}`,
  ),
  'example-value': entry(
    {},
    () => 'is an example value (from connector/env.example or a common stand-in): set a secret of your own',
    () => 'é um valor de exemplo (de connector/env.example ou um valor habitual de substituição): defina um segredo seu',
  ),
  'too-short': entry(
    { length: z.number(), min: z.number(), hint: OPT },
    (p) => `is too short (${p.length} characters): use at least ${p.min}${p.hint ? `, e.g. ${p.hint}` : ''}`,
    (p) => `é curto demais (${p.length} caracteres): use pelo menos ${p.min}${p.hint ? `, por exemplo ${p.hint}` : ''}`,
  ),
  weak: entry(
    { why: z.enum(['repeated', 'few-characters', 'sequence', 'common']), hint: OPT },
    (p) => `is easy to guess (${WEAK_WHY.en[p.why]}): choose a long random value${p.hint ? `, e.g. ${p.hint}` : ''}`,
    (p) => `é fácil de adivinhar (${WEAK_WHY.pt[p.why]}): escolha um valor longo e aleatório${p.hint ? `, por exemplo ${p.hint}` : ''}`,
  ),
} as const;

export type ConfigCode = keyof typeof CATALOGUE;
export type ConfigParams<C extends ConfigCode> = z.input<(typeof CATALOGUE)[C]['params']>;

/** One problem of the file: where (a path such as tenants.0.shop.url, '' for the whole file) and what, in both languages. */
export interface ConfigProblem {
  path: string;
  /** English. */
  message: string;
  pt: string;
}

/** A problem worded from the catalogue. */
export function configProblem<C extends ConfigCode>(path: string, code: C, params: ConfigParams<C>): ConfigProblem {
  const wording = CATALOGUE[code] as unknown as Entry<ConfigParams<C>>;
  return { path, message: wording.en(params), pt: wording.pt(params) };
}

/** The whole refusal, for a terminal or a page: "<file>: N problems" then one line per problem. */
export function configRefusalText(lang: Lang, source: string, problems: readonly ConfigProblem[]): string {
  const head = lang === 'pt' ? `${source}: ${problems.length} ${problems.length === 1 ? 'problema' : 'problemas'}` : `${source}: ${problems.length} problem(s)`;
  return `${head}\n${problems.map((p) => `  - ${problemLine(lang, p)}`).join('\n')}`;
}

/** "path: what" in the reader's language. */
export function problemLine(lang: Lang, problem: ConfigProblem): string {
  return `${problem.path || (lang === 'pt' ? '(ficheiro)' : '(file)')}: ${lang === 'pt' ? problem.pt : problem.message}`;
}
