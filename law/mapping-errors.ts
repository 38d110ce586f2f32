import type { z } from 'zod';
import { englishClause, type Lang, type MappingCode, type MappingMessage, type MappingParams, mappingText, namingPlatform } from './mapping-messages';

/**
 * One decision the mapper took, shown to the shop owner on the order ("NIF 123 invalid: consumer NIF
 * used"): a coded message (`code`, `params`: word it with `mappingText(lang, note)`) and its
 * English text in `message`, as the library has always written it.
 */
export type MappingNote = MappingMessage & {
  level: 'info' | 'warning' | 'error';
  message: string;
};

/**
 * The order (or refund) cannot become a document as it stands. The message names the order and the
 * problem, because it ends up as an order note in the shop and in the connector's dead-letter list.
 * `detail` is the coded problem (`text(lang)` words it); `message` and `problem` stay English.
 */
export class OrderMappingError extends Error {
  override readonly name = 'OrderMappingError';
  readonly code: MappingCode;
  readonly params: MappingMessage['params'];
  /** The problem in English, without the order (what `message` says after "Order #id: "). */
  readonly problem: string;
  constructor(
    readonly orderId: number | string | undefined,
    readonly detail: MappingMessage,
  ) {
    const problem = englishClause(detail);
    super(orderId === undefined ? problem : `Order #${orderId}: ${problem}`);
    this.problem = problem;
    this.code = detail.code;
    this.params = detail.params;
  }

  /** The problem as a sentence in `lang` (without the order number: the page or note names the order). */
  text(lang: Lang): string {
    return mappingText(lang, this.detail);
  }
}

function note(level: MappingNote['level'], detail: MappingMessage, prefix = ''): MappingNote {
  return { level, message: prefix + englishClause(detail), ...detail } as MappingNote;
}

/** A note from its code and params; the English `message` is built now, other languages when asked. */
export function info<C extends MappingCode>(code: C, params: MappingParams<C>): MappingNote {
  return note('info', { code, params } as MappingMessage);
}

export function warning<C extends MappingCode>(code: C, params: MappingParams<C>): MappingNote {
  return note('warning', { code, params } as MappingMessage);
}

/** A hold's reason as a warning note: its English message says "Held: ..." as it always has. */
export function heldNote(detail: MappingMessage): MappingNote {
  return note('warning', detail, 'Held: ');
}

/** A message as a note of `level` (for a coded message built elsewhere, e.g. a hold). */
export function noteOf(level: MappingNote['level'], detail: MappingMessage): MappingNote {
  return note(level, detail);
}

/** The note naming the sale's platform where its words do (`namingPlatform`), its English rebuilt with it. */
export function noteNamingPlatform(note: MappingNote, title: string | undefined): MappingNote {
  const named = namingPlatform(note, title);
  if (named === note) return note;
  const { level, message, ...detail } = named;
  return level === 'warning' && message.startsWith('Held: ') ? heldNote(detail as MappingMessage) : noteOf(level, detail as MappingMessage);
}

/** `new OrderMappingError(orderId, { code, params })` with the params typed by the code. */
export function mappingError<C extends MappingCode>(orderId: number | string | undefined, code: C, params: MappingParams<C>): OrderMappingError {
  return new OrderMappingError(orderId, { code, params } as MappingMessage);
}

/** What a schema refused in a request the mapping built: the fields, and each field's problem in the schema's words. */
export function refusedFields(error: z.ZodError): { fields: string; problems: string } {
  const paths = error.issues.map((issue) => issue.path.join('.'));
  return {
    fields: [...new Set(paths)].join(', '),
    problems: error.issues.map((issue, i) => `${paths[i]} ${issue.message}`).join('; '),
  };
}
