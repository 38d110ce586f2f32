import { z } from 'zod';
import { isDecimalText } from '../client/money';
import { codesOf } from './exemption-codes';
import { DISPATCH_REGIONS } from './vat-rates';

/**
 * Every choice the mapping leaves to the shop owner, with the defaults a Portuguese shop selling
 * goods would pick. `MappingSettingsSchema.parse({})` gives the defaults.
 */

const decimalText = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .refine((text) => isDecimalText(text) && !text.includes(','), { message: 'must be a decimal like 1000 or 1.0832' });

/** Zones already proven: building an Intl.DateTimeFormat costs far more than the rest of a settings parse, which runs per order. */
const knownZones = new Set<string>();

function isTimeZone(zone: string): boolean {
  if (knownZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: zone });
  } catch {
    return false;
  }
  knownZones.add(zone);
  return true;
}

const exemptionCode = z.string().regex(/^M\d{2}$/, { message: 'must be an exemption code like M05, M16 or M99' });

const addressSettings = z.object({
  addressDetail: z.string().min(1).max(100),
  city: z.string().min(1).max(50),
  postalCode: z.string().min(1).max(20),
  countryCode: z.string().regex(/^[A-Z]{2}$/, { message: 'must be an ISO country code like PT' }),
});
export type AddressSettings = z.infer<typeof addressSettings>;

export const MappingSettingsSchema = z.object({
  /** Order meta keys that may hold the buyer's NIF / VAT number, first non-empty wins. */
  nifMetaKeys: z
    .array(z.string().min(1))
    .default(['_billing_nif', '_billing_vat', 'billing_nif', 'vat_number', '_vat_number', '_billing_vat_number', 'billing_vat']),
  /** Unit name on every line (the service's product unit). */
  unit: z.string().min(1).max(50).default('UN'),
  /** Goods (P) or service (S) per line: the rule and its order are in line-type.ts. */
  lineTypes: z
    .object({
      default: z.enum(['P', 'S']).default('P'),
      /** Product or variation ids that are goods / services, whatever the shop says. */
      goodsProductIds: z.array(z.number().int()).default([]),
      serviceProductIds: z.array(z.number().int()).default([]),
      goodsSkuPrefixes: z.array(z.string().min(1)).default([]),
      serviceSkuPrefixes: z.array(z.string().min(1)).default([]),
      /** Product categories (slug or id) whose products are goods / services (read from the shop by the connector). */
      goodsCategories: z.array(z.union([z.string().min(1), z.number().int()])).default([]),
      serviceCategories: z.array(z.union([z.string().min(1), z.number().int()])).default([]),
      /**
       * What the shop says per product or variation id (categories above, then WooCommerce's
       * `virtual` flag): filled by the connector from the shop's products, not by hand.
       */
      shopProductTypes: z.record(z.string().regex(/^\d+$/), z.enum(['P', 'S'])).default({}),
      /** WooCommerce 8 sets needs_processing=false when every item is virtual and downloadable. */
      servicesWhenOrderNeedsNoProcessing: z.boolean().default(true),
    })
    .prefault({}),
  /**
   * Where the shop's goods leave from (CIVA art. 6(1)): the region whose VAT rates its goods take,
   * whatever the buyer's postcode. Unset: the connector reads the shop's store address
   * (`storeAddressRegion`); without either, mainland.
   */
  dispatchRegion: z.enum(DISPATCH_REGIONS).optional(),
  /** The region of the shop's store address (WooCommerce settings), filled by the connector, not by hand. */
  storeAddressRegion: z.enum(DISPATCH_REGIONS).optional(),
  /**
   * The shop is registered in the EU One-Stop Shop (OSS, CIVA art. 6-A, Lei 47/2020): a distance
   * sale of goods to a consumer in another member state is then held (it is taxed in that state).
   */
  oss: z.object({ registered: z.boolean().default(false) }).prefault({}),
  /**
   * An intra-EU supply of goods (M16) needs the buyer's VAT number valid in VIES (RITI art. 14(1)(a),
   * a substantive condition since Lei 49/2020): without a VIES answer confirming it (the connector
   * asks by default; a library caller passes `checkVatNumber`'s verdict) the invoice is held.
   */
  viesRequiredForM16: z.boolean().default(true),
  /**
   * A service to a business in another member state is reverse-charged (M40, CIVA art. 6(6)(a)) only
   * once its VAT number is confirmed valid in VIES (Reg. 282/2011 art. 18(1)(a)): without that answer
   * the invoice is held. false: issue M40 on the number's format alone (the tenant's own risk).
   */
  viesRequiredForM40: z.boolean().default(true),
  /**
   * Services whose place of supply is not the buyer's (issue 26.1-2). Lists by product or variation
   * id, SKU prefix, or category (read from the shop by the connector into `shopSupplyKinds`).
   */
  services: z
    .object({
      /**
       * Taxed where performed even for businesses (CIVA art. 6(7); Directive 2006/112 art. 53-54):
       * admission to events held in Portugal, services connected with immovable property in Portugal.
       * Never issued at 0 %.
       */
      taxedWherePerformed: z
        .object({
          productIds: z.array(z.union([z.number().int(), z.string().min(1)])).default([]),
          skuPrefixes: z.array(z.string().min(1)).default([]),
          categories: z.array(z.union([z.string().min(1), z.number().int()])).default([]),
        })
        .prefault({}),
      /** Electronically supplied services (CIVA art. 6-A, 6(8)(l)): under OSS, held when sold to a consumer in another member state. */
      electronic: z
        .object({
          productIds: z.array(z.union([z.number().int(), z.string().min(1)])).default([]),
          skuPrefixes: z.array(z.string().min(1)).default([]),
          categories: z.array(z.union([z.string().min(1), z.number().int()])).default([]),
          /** A downloadable or virtual product is an electronic service unless listed otherwise (the safe default under OSS). */
          virtualOrDownloadable: z.boolean().default(true),
        })
        .prefault({}),
      /** Filled by the connector from the shop's products (categories, virtual, downloadable), not by hand. */
      shopSupplyKinds: z.record(z.string(), z.enum(['electronic', 'where-performed'])).default({}),
    })
    .prefault({}),
  /**
   * Names (words, any case) of the fees a gift-card plugin adds when a card is redeemed: such an
   * untaxed negative fee is a payment (CIVA art. 7(14)), and the invoice keeps the full price.
   * Other untaxed negative fees on a taxed order are held with the reason.
   */
  giftCardFeeNames: z.array(z.string().min(2)).default([]),
  /**
   * A multi-purpose voucher sold without VAT (a line the platform tells is a gift card, or a product
   * or fee named in `giftCardFeeNames`): its transfer is no supply, the VAT is due when it is
   * redeemed (CIVA art. 7(13)-(14), as amended in 2019). `left-out` (default): the invoice covers the
   * order's supplies and leaves the voucher out, as it does a donation, with a note; `hold`: the
   * order waits for a person. A voucher sold with VAT is held either way (`voucher-sale-taxed`).
   */
  giftCardSales: z.enum(['left-out', 'hold']).default('left-out'),
  /**
   * An amount a refund gives back that the platform itself records apart from the refunded lines,
   * without a VAT rate of its own (Shopify's order adjustment: a goodwill amount, a refund
   * discrepancy). `hold` (default): the credit note waits for a person, since at which rates such an
   * amount reduces the invoice is the accountant's call; `proportional`: credited across the
   * invoice's rates in proportion to what each sold, as an amount refunded without items is.
   */
  refundWithoutLines: z.enum(['hold', 'proportional']).default('hold'),
  /**
   * Shipping takes the goods' rate (CIVA art. 16(5)(b)): goods at one rate with shipping at another
   * are held (`hold`) or re-rated keeping what the buyer paid (`goods-rate`); with goods at several
   * rates, shipping stays as charged unless the accountant opts in to a `proportional` split.
   */
  shippingRate: z
    .object({
      otherRate: z.enum(['hold', 'goods-rate']).default('hold'),
      mixedGoods: z.enum(['as-charged', 'proportional']).default('as-charged'),
    })
    .prefault({}),
  /** Codes and texts of the lines that are not products. */
  shippingLineCode: z.string().min(1).max(60).default('PORTES'),
  feeLineCode: z.string().min(1).max(60).default('TAXA'),
  /** Free shipping (0.00) is left off the document unless asked for; a 0 line would need an exemption code. */
  includeFreeShipping: z.boolean().default(false),
  /**
   * Removed (it stamped one code on every 0% line). Kept readable: `M10` is read as
   * `exemptions.regime: 'M10'`; any other value is refused with the way to say it now.
   */
  exemptionCode: z.unknown().optional(),
  /**
   * The real reason of each 0% line (CIVA art. 36(5)(e)), per situation: exemption-rules.ts.
   * M05 (exports), M16 (intra-EU B2B) and M40 (services to a business abroad) are automatic.
   */
  exemptions: z
    .object({
      /** A shop-wide regime: M10 (small-business regime, CIVA art. 53) or M20 (flat-rate farmers, art. 59-D). */
      regime: z.enum(codesOf('regime') as [string, ...string[]]).optional(),
      /**
       * The last day (yyyy-mm-dd) the shop was in `regime`: a sale after it carries VAT like any
       * other (DL 35/2025: past EUR 18,750 in the year the shop leaves the art. 53 regime at once).
       */
      regimeUntil: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a day like 2026-09-30' }).optional(),
      /** From this turnover in the year (EUR) an M10 invoice is warned that the EUR 18,750 exit is near. */
      regimeWarnFrom: decimalText.default('16875'),
      /**
       * The year's M10 documents so far, in euros (invoices less credit notes): filled by the connector
       * from its ledger, not by hand. An M10 invoice that would take it past EUR 18,750 is held.
       */
      regimeTurnover: z.object({ year: z.number().int(), total: decimalText }).optional(),
      /**
       * Codes for products the accountant names, like the goods/service rules: product or variation
       * ids, SKU prefixes, categories (slug or id, read from the shop by the connector). The first
       * entry that names a product decides. Never used for goods that stay in Portugal or go to an
       * EU consumer (those are taxed, or exempt only under a regime).
       */
      byProduct: z
        .array(
          z.object({
            code: z.enum(codesOf('per-product') as [string, ...string[]], {
              message: `must be one of ${codesOf('per-product').join(', ')} (M05, M16, M40 are automatic; M10/M20 go in exemptions.regime)`,
            }),
            productIds: z.array(z.number().int()).default([]),
            skuPrefixes: z.array(z.string().min(1)).default([]),
            categories: z.array(z.union([z.string().min(1), z.number().int()])).default([]),
          }),
        )
        .default([]),
      /**
       * Codes for the fees the shop charges, by words of their name (any case, accents ignored; the
       * first entry that matches decides): e.g. `{ code: 'M01', names: ['tara', 'vasilhame'] }` for a
       * returnable packaging deposit, excluded from the taxable amount (CIVA art. 16(6)). A fee with
       * its own code keeps it (it does not follow the goods' rate); other fees follow the goods.
       */
      byFee: z
        .array(
          z.object({
            code: z.enum(codesOf('per-product') as [string, ...string[]], {
              message: `must be one of ${codesOf('per-product').join(', ')}`,
            }),
            names: z.array(z.string().min(2)).min(1),
          }),
        )
        .default([]),
      /** Filled by the connector from the products' categories (like lineTypes.shopProductTypes), not by hand. */
      shopProductCodes: z.record(z.string().regex(/^\d+$/), z.string().regex(/^M\d{2}$/)).default({}),
      /**
       * A fee or product whose name contains one of these words (any case, accents ignored) is a
       * donation: no consideration for a supply (CIVA art. 1(1)(a), 4(1)), never a document line.
       */
      donationWords: z.array(z.string().min(2)).default(['donativo', 'doação', 'donation', 'donate', 'spende', 'don solidaire']),
      /**
       * A fee whose name has one of these words (whole words, any case, accents ignored) and that
       * carries no tax is a voluntary tip: no consideration for the supply (CIVA art. 16(1) counts
       * what is paid for it), left off the invoice and held for a person like a donation. A taxed
       * tip (a service charge the buyer had to pay) is a charge and follows the goods.
       */
      tipWords: z.array(z.string().min(2)).default(['gorjeta', 'gratificação', 'tip', 'tips', 'gratuity', 'propina', 'trinkgeld', 'pourboire']),
      /** Products (or variations) that are donations whatever their name. */
      donationProductIds: z.array(z.number().int()).default([]),
    })
    .prefault({}),
  /**
   * Where per-rate rounding makes the shop's total unreachable by moving a line's net by a cent or
   * two: `issue-nearest` issues the nearest reachable total and reports the cent difference
   * (`totalDifference`); `hold` holds the order for a person.
   */
  unreachableTotal: z.enum(['issue-nearest', 'hold']).default('issue-nearest'),
  /**
   * Opt-in only, for an accountant who decided so: instead, one 0% "Acerto de arredondamento" line
   * closes the gap, with the exemption code they chose. A rounding cent of a taxable sale is
   * taxable (CIVA art. 16(1)): M99 ("not subject") does not fit it, so there is no default code.
   */
  roundingLine: z
    .object({
      enabled: z.boolean().default(false),
      code: z.string().min(1).max(60).default('ACERTO'),
      description: z.string().min(3).max(200).default('Acerto de arredondamento'),
      exemptionCode: exemptionCode.optional(),
    })
    .prefault({})
    .refine((line) => !line.enabled || line.exemptionCode !== undefined, {
      message: 'roundingLine.exemptionCode is required when roundingLine.enabled is true (the code your accountant chose for this line)',
      path: ['exemptionCode'],
    }),
  /** Document type for paid orders: T invoice/receipt, I invoice, S simplified invoice. */
  documentType: z.enum(['T', 'I', 'S']).default('T'),
  /** Orders without a payment date are not receipts: this type is used for them. */
  unpaidDocumentType: z.enum(['I', 'T', 'S']).default('I'),
  /** Simplified invoice limits (art. 40 CIVA): EUR 1000 for a retailer's goods to consumers, else EUR 100. */
  simplifiedInvoice: z
    .object({
      sellerIsRetailer: z.boolean().default(true),
      retailConsumerLimit: decimalText.default('1000'),
      otherLimit: decimalText.default('100'),
      fallbackType: z.enum(['T', 'I']).default('T'),
    })
    .prefault({}),
  /**
   * Consumer invoices of this amount (EUR) or more carry the buyer's name and address (the consumer
   * NIF is fine): certified software commonly asks for them there, and giving them is always safe.
   */
  identifiedBuyerFrom: decimalText.default('1000'),
  /**
   * Hold such an invoice (do not issue) when the buyer's name or address is missing. Off by
   * default: the rule that asked for them (former CIVA art. 36(15)) was revoked by DL 28/2019.
   */
  holdUnidentifiedConsumerInvoices: z.boolean().default(false),
  /**
   * A company buyer (billing company, or the number typed in a VAT-number field) whose NIF is
   * invalid: hold the invoice (true) rather than issue it to the consumer NIF, which the company
   * could not use and nobody could correct (a certified document is only reversed by a credit note).
   */
  holdCompanyWithInvalidNif: z.boolean().default(true),
  /**
   * Order statuses that are not a sale yet (or no longer) are never invoiced unless listed here:
   * e.g. ["on-hold"] for shops that invoice bank transfers before the money arrives.
   */
  invoiceUnpaidStatuses: z.array(z.enum(['pending', 'on-hold', 'failed', 'cancelled'])).default([]),
  /** DueDate = Date + dueDays; the service wants DueDate strictly after Date. */
  dueDays: z.number().int().min(1).max(365).default(30),
  /** ExternalId = prefix + order id (+ "-R" + refund id, "-W" for waybills); at most 50 characters. */
  externalIdPrefix: z.string().max(30).regex(/^[A-Za-z0-9_.:-]*$/, { message: 'letters, digits and _ . : - only' }).default('wc-'),
  /** IANA zone of the shop; document dates are the calendar day there. */
  shopTimeZone: z
    .string()
    .default('Europe/Lisbon')
    .refine(isTimeZone, { message: 'must be an IANA time zone like Europe/Lisbon' }),
  /** Country assumed when the billing address has none. */
  defaultCountry: z.string().regex(/^[A-Z]{2}$/).default('PT'),
  /**
   * With tax-inclusive prices WooCommerce keeps unrounded net amounts: 'unrounded' shows the unit
   * price with up to 10 decimals (10.00 with 23% -> 8.1300813008), 'cents' shows the rounded net.
   */
  taxInclusiveUnitPrice: z.enum(['unrounded', 'cents']).default('unrounded'),
  /** EuroRate per currency: euros per one unit of the order's currency (TotalAmountWithExchangeRate = Amount × EuroRate). */
  euroRates: z.record(z.string().regex(/^[A-Z]{3}$/), decimalText).default({}),
  /**
   * The ECB reference rate of the day the tax became due, per currency (euros per unit), filled by
   * the connector from the ECB's rates file, not by hand; wins over the order meta and euroRates.
   */
  referenceEuroRates: z.record(z.string().regex(/^[A-Z]{3}$/), z.object({ euroRate: decimalText, day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) })).default({}),
  /** Order meta keys holding the rate used at checkout by a currency plugin; wins over euroRates. */
  euroRateMetaKeys: z.array(z.string().min(1)).default(['_euro_rate']),
  /** Close documents (number + PDF) or leave drafts. */
  closeDocuments: z.boolean().default(true),
  /** E-mail the document to the billing e-mail when closing. */
  sendToCustomer: z.boolean().default(false),
  /** Optional series names per document type. */
  series: z.partialRecord(z.enum(['T', 'I', 'S', 'C', 'W', 'Y']), z.string().min(1).max(30)).default({}),
  waybill: z
    .object({
      type: z.enum(['W', 'Y']).default('W'),
      loadAddress: addressSettings.optional(),
      /** LoadDateTime = now + this many minutes (the goods leave after the document exists). */
      leadTimeMinutes: z.number().int().min(0).max(60 * 24 * 30).default(60),
      vehicleLicence: z.string().max(30).optional(),
    })
    .prefault({}),
}).superRefine((settings, context) => {
  if (settings.exemptionCode === undefined || settings.exemptionCode === 'M10') return;
  context.addIssue({
    code: 'custom',
    path: ['exemptionCode'],
    message:
      'exemptionCode (one code for every 0% line) was removed: each 0% line now gets its real reason (CIVA art. 36(5)(e)). ' +
      "Use exemptions.regime: 'M10' for the small-business regime (art. 53), or exemptions.byProduct: [{ code: 'M07', categories: ['...'] }] " +
      'for the products a code covers; M05, M16 and M40 are automatic (docs/mapping.md, Exemption codes)',
  });
});

export type MappingSettings = z.infer<typeof MappingSettingsSchema>;

/** The shop-wide regime, reading the removed `exemptionCode: 'M10'` as `exemptions.regime: 'M10'`. */
export function exemptionRegime(settings: MappingSettings): string | undefined {
  return settings.exemptions.regime ?? (settings.exemptionCode === 'M10' ? 'M10' : undefined);
}
export type MappingSettingsInput = z.input<typeof MappingSettingsSchema>;

export function parseMappingSettings(input: unknown = {}): MappingSettings {
  return MappingSettingsSchema.parse(input);
}
