import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { MappingNote } from '../../../law/mapping-errors';
import type { MappingMessage } from '../../../law/mapping-messages';

/** What a person does about a held order (the reasons say what is missing). */
export const HELD_ORDER_FIX =
  'Nothing was sent to MagniFinance. Do what the reasons say on the order in WooCommerce (for example add the buyer\'s NIF, name or address), or change the Mapping Settings, then run the order again: with a WooCommerce Trigger, saving the order sends it again. Its External ID keeps a second run from issuing twice.';

/** The part of any mapping's answer that can stop an issue: a hold, its reasons and the notes. */
export interface MappedForIssue {
  hold?: boolean;
  /** The reasons that made `hold` true (invoices and credit notes name them; a waybill only notes). */
  holdReasons?: readonly string[];
  /** The same reasons, coded (code and params), for a workflow that branches on why. */
  holds?: readonly MappingMessage[];
  notes: readonly MappingNote[];
}

/**
 * A mapping that holds an order says a person must act before a certified document can be issued.
 * That is a failed item, never a success without a document: with "Continue (using error output)"
 * it reaches the error branch, otherwise it stops the execution. Which holds exist is the
 * mapping's business: its answer says "held" and names the hold's own reasons; where a mapping
 * names none, its warnings are passed on as the reasons.
 */
/** `fix`: what a person does, in the shop's words (WooCommerce's by default). */
export function throwIfHeld(node: INode, itemIndex: number, mapped: MappedForIssue, known: IDataObject, fix: string = HELD_ORDER_FIX): void {
  if (mapped.hold !== true) return;
  const named = mapped.holdReasons ?? [];
  const warnings = mapped.notes.filter((note) => note.level !== 'info').map((note) => note.message);
  const reasons = named.length > 0 ? [...named] : warnings.length > 0 ? warnings : ['the order mapping held it (see notes)'];
  const error = new NodeOperationError(node, `Order #${String(known.orderId)} is held, not invoiced: ${reasons.join('; ')}`, {
    itemIndex,
    description: `${named.length > 0 ? 'Why the order mapping held it' : "The order mapping's warnings (the reason for the hold among them)"}:\n${reasons.map((reason) => `- ${reason}`).join('\n')}\n${fix}`,
  });
  const facts: IDataObject = {
    held: true,
    orderId: known.orderId,
    externalId: known.externalId,
    reasons,
    ...(mapped.holds ? { holds: mapped.holds.map((hold) => ({ code: hold.code, params: { ...hold.params } })) } : {}),
    notes: mapped.notes.map((note) => ({ ...note })),
    whatToDo: fix,
  };
  Object.assign(error.context, facts);
  throw error;
}
