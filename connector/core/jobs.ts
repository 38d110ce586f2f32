import { z } from 'zod';

/** Queue names (BullMQ prefixes them with the configured Redis prefix). */
export const DOCUMENTS_QUEUE = 'documents';
export const SWEEP_QUEUE = 'sweep';

/** `review` issues nothing: it compares an invoiced order with its documents (pipeline/order-review.ts). */
export const PURPOSE_KINDS = ['invoice', 'waybill', 'credit-note', 'cancellation', 'review'] as const;
export type PurposeKind = (typeof PURPOSE_KINDS)[number];

export const STEPS = ['issue', 'finalize', 'writeback'] as const;
export type Step = (typeof STEPS)[number];

/**
 * What a document job carries: a reference, nothing more. No secret (the tenant id points at
 * credentials held in the process's configuration) and no customer data: BullMQ stores job data in
 * clear, and the worker reads the order from the shop when it needs it (fresh, not a stale copy).
 */
export const DocumentJobDataSchema = z.object({
  tenant: z.string(),
  orderId: z.number().int().positive(),
  kind: z.enum(PURPOSE_KINDS),
  refundId: z.number().int().positive().optional(),
  step: z.enum(STEPS),
  /** Get Document polls done so far (finalize) or waits for the invoice number (credit notes). */
  polls: z.number().int().min(0),
  /** When the connector first saw the order (ms since epoch), for the order-to-number histogram. */
  seenAt: z.number(),
});
export type DocumentJobData = z.infer<typeof DocumentJobDataSchema>;

/** The ledger purpose: one document per order and purpose. */
export function purposeOf(kind: PurposeKind, refundId?: number): string {
  return kind === 'credit-note' ? `credit-note-${refundId ?? 0}` : kind;
}

/** BullMQ refuses ':' in custom ids, so the parts are joined with '.' (tenant ids cannot contain it). */
export function documentJobId(tenant: string, orderId: number, kind: PurposeKind, refundId?: number): string {
  return [purposeOf(kind, refundId), tenant, orderId].join('.');
}

export const SweepJobDataSchema = z.object({ tenant: z.string().optional() });
export type SweepJobData = z.infer<typeof SweepJobDataSchema>;

/**
 * An id as it may appear in a URL or a form: decimal digits only, no sign, no leading zero, no
 * exponent (`1e0`, `0x1`, ` 1` and `1.0` are not ids, though Number() reads them as 1).
 */
export const IdText = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/, 'must be a positive whole number written in digits')
  .transform(Number);

/** The id in `text`, or null when it is not one (IdText's rule). */
export function idFrom(text: unknown): number | null {
  const parsed = IdText.safeParse(text);
  return parsed.success ? parsed.data : null;
}
