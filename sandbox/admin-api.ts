import { z } from 'zod';
import { parseDecimal, formatDecimal, formatDecimalComma } from '../client/money';
import { documentTotals, paymentState } from './document-view';
import { RuntimeConfigSchema, AccountOptionSchema } from './options';
import { approvePartnership } from './partners';
import type { SandboxStore } from './store';
import { saftAnswer } from './saft/saft-route';

/**
 * Sandbox-only routes under /_sandbox/ (no credentials: the sandbox is a local tool). They let
 * tests and demos see and steer what the real service keeps to itself: stored documents, sent
 * e-mails, payments, partner approvals, fault settings and the clock.
 */

export interface AdminAnswer {
  status: number;
  body: unknown;
  /** A file instead of JSON (the SAF-T export). */
  file?: { contentType: string; name: string; bytes: Buffer };
}

const PaymentBody = z.object({
  documentId: z.coerce.number().int().positive(),
  amount: z.union([z.string(), z.number()]).transform((v, ctx) => {
    try {
      const d = parseDecimal(v);
      if (d.units <= 0n) throw new RangeError('not positive');
      return formatDecimal(d);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'amount must be a positive decimal' });
      return z.NEVER;
    }
  }),
});

const ApproveBody = z
  .object({
    partnerTaxId: z.string().optional(),
    companyTaxId: z.string().optional(),
    ownerTaxId: z.string().optional(),
    allowedTypes: z.array(z.enum(['T', 'I', 'S', 'C', 'D', 'W', 'Y'])).optional(),
  })
  .refine((b) => b.companyTaxId ?? b.partnerTaxId, { message: 'companyTaxId or partnerTaxId is required' });

const ClockBody = z.object({ advanceMs: z.number().int().min(0) });
const AccountBody = AccountOptionSchema;

function bad(error: z.ZodError): AdminAnswer {
  return { status: 400, body: { error: 'Invalid body', issues: error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) } };
}

function recordPayment(store: SandboxStore, body: unknown): AdminAnswer {
  const parsed = PaymentBody.safeParse(body);
  if (!parsed.success) return bad(parsed.error);
  const doc = store.document(parsed.data.documentId);
  if (!doc) return { status: 404, body: { error: `Document ${parsed.data.documentId} does not exist` } };
  if (doc.status !== 'closed') return { status: 409, body: { error: 'Payments can be recorded only on closed documents' } };
  doc.payments.push({ amount: parsed.data.amount, at: store.now() });
  store.changed();
  const state = paymentState(doc, documentTotals(doc).amount);
  return { status: 200, body: { documentId: doc.id, paymentStatus: state.status, unpaidAmount: formatDecimalComma(state.unpaid) } };
}

export function handleAdmin(store: SandboxStore, method: string, path: string, query: URLSearchParams, body: unknown): AdminAnswer {
  switch (`${method} ${path}`) {
    case 'GET /health':
      return { status: 200, body: { ok: true } };
    case 'GET /documents': {
      const account = query.get('accountTaxId');
      const documents = store.documents().filter((d) => account === null || d.accountTaxId === account);
      return { status: 200, body: { documents } };
    }
    case 'GET /outbox': {
      const to = query.get('to');
      const emails = store.state.outbox.filter((e) => to === null || e.to.toLowerCase() === to.toLowerCase());
      return { status: 200, body: { emails } };
    }
    case 'POST /payments':
      return recordPayment(store, body);
    case 'GET /partners':
      return { status: 200, body: { partnerships: store.state.partnerships } };
    case 'POST /partners/approve': {
      const parsed = ApproveBody.safeParse(body);
      if (!parsed.success) return bad(parsed.error);
      const { companyTaxId, partnerTaxId, ownerTaxId, allowedTypes } = parsed.data;
      const first = (companyTaxId ?? partnerTaxId) as string;
      const second = companyTaxId !== undefined ? (partnerTaxId ?? ownerTaxId) : ownerTaxId;
      const approved = approvePartnership(store, first, second, allowedTypes);
      if (approved.length === 0) return { status: 404, body: { error: 'No partnership request matches' } };
      return { status: 200, body: { partnerships: approved } };
    }
    case 'GET /accounts':
      return { status: 200, body: { accounts: store.state.accounts } };
    case 'POST /accounts': {
      const parsed = AccountBody.safeParse(body);
      if (!parsed.success) return bad(parsed.error);
      if (store.accountByTaxId(parsed.data.taxId)) return { status: 409, body: { error: 'An account with this taxId exists' } };
      store.addAccount({ ...parsed.data, atCommunication: parsed.data.atCommunication ?? false });
      return { status: 201, body: { account: parsed.data } };
    }
    case 'GET /config':
      return { status: 200, body: store.config };
    case 'POST /config': {
      const parsed = RuntimeConfigSchema.partial().strict().safeParse(body);
      if (!parsed.success) return bad(parsed.error);
      store.config = { ...store.config, ...parsed.data };
      return { status: 200, body: store.config };
    }
    case 'POST /clock': {
      const parsed = ClockBody.safeParse(body);
      if (!parsed.success) return bad(parsed.error);
      store.clock.advance(parsed.data.advanceMs);
      return { status: 200, body: { now: new Date(store.now()).toISOString() } };
    }
    case 'GET /saft':
      return saftAnswer(store, query);
    case 'POST /reset':
      store.reset();
      return { status: 200, body: { ok: true } };
    default:
      return { status: 404, body: { error: `No such sandbox route: ${method} /_sandbox${path}` } };
  }
}
