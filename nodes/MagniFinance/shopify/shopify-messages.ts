/**
 * What the node tells a person about a Shopify order it cannot invoice from what n8n handed it, as
 * codes with typed params, in European Portuguese and English from this one catalogue (the pattern
 * of shop/claim-messages.ts). The error items carry `why: { code, params }`, the English words
 * (n8n's own language) and the Portuguese ones (`whyPt`).
 */
type Lang = 'pt' | 'en';

interface ShopifyParams {
  /** A B2B order whose NIF source is the company's tax registration, which a REST body does not carry (Order Record "None"). */
  'shopify-company-nif-unread': { order: string };
  /** A NIF source that is a metafield: a webhook body carries no metafields. */
  'shopify-metafield-nif-unread': { order: string; metafield: string };
  /** A refund whose money went back in another currency than the invoice's (REST gives that amount in its own currency only). */
  'shopify-refund-currency-unread': { order: string; refundId: number; refundCurrency: string; invoiceCurrency: string };
  /** The refund given belongs to another order than the order given. */
  'shopify-refund-other-order': { order: string; orderId: number; refundId: number; refundOrderId: number };
}
export type ShopifyCode = keyof ShopifyParams;
export type ShopifyMessage = { [C in ShopifyCode]: { code: C; params: ShopifyParams[C] } }[ShopifyCode];

type Entry<P> = Record<Lang, { reason: (p: P) => string; whatToDo: (p: P) => string }>;

const NOTHING_SENT: Record<Lang, string> = { en: 'Nothing was sent to MagniFinance.', pt: 'Nada foi enviado à MagniFinance.' };

const CATALOGUE: { [C in ShopifyCode]: Entry<ShopifyParams[C]> } = {
  'shopify-company-nif-unread': {
    en: {
      reason: (p) =>
        `Order ${p.order} was not invoiced: it was bought by a Shopify B2B company, whose tax registration (the NIF source "company") is not in the order Shopify hands to n8n (a webhook or REST order names the company by id only)`,
      whatToDo: () =>
        `Invoice it through the connector, which reads the company through the GraphQL Admin API, or have the NIF written in an order attribute and put that attribute before "company" in the Shopify Settings' nifSources. ${NOTHING_SENT.en}`,
    },
    pt: {
      reason: (p) =>
        `A encomenda ${p.order} não foi faturada: foi comprada por uma empresa B2B da Shopify, cujo número fiscal (a origem do NIF «company») não vem na encomenda que a Shopify entrega ao n8n (um webhook ou a encomenda REST só indicam o id da empresa)`,
      whatToDo: () =>
        `Fature-a pelo conector, que lê a empresa pela API GraphQL, ou faça escrever o NIF num atributo da encomenda e ponha esse atributo antes de «company» em nifSources das definições Shopify. ${NOTHING_SENT.pt}`,
    },
  },
  'shopify-metafield-nif-unread': {
    en: {
      reason: (p) => `Order ${p.order} was not invoiced: the Shopify Settings read the buyer's NIF from the metafield ${p.metafield}, and the order Shopify hands to n8n carries no metafields`,
      whatToDo: () =>
        `Remove the metafield from the Shopify Settings' nifSources and have the NIF written in an order attribute (a checkout field), or invoice this shop through the connector, which reads metafields. ${NOTHING_SENT.en}`,
    },
    pt: {
      reason: (p) => `A encomenda ${p.order} não foi faturada: as definições Shopify leem o NIF do cliente do metafield ${p.metafield}, e a encomenda que a Shopify entrega ao n8n não traz metafields`,
      whatToDo: () =>
        `Retire o metafield de nifSources nas definições Shopify e faça escrever o NIF num atributo da encomenda (um campo do checkout), ou fature esta loja pelo conector, que lê metafields. ${NOTHING_SENT.pt}`,
    },
  },
  'shopify-refund-currency-unread': {
    en: {
      reason: (p) =>
        `Refund #${p.refundId} of order ${p.order} has no credit note: its money went back in ${p.refundCurrency}, the invoice is in ${p.invoiceCurrency}, and Shopify's refund gives that amount in ${p.refundCurrency} only`,
      whatToDo: () =>
        `If the invoice was issued in the buyer's currency, set "currency": "presentment" in the Shopify Settings and run the refund again; otherwise issue the credit note through the connector, or by hand in MagniFinance. ${NOTHING_SENT.en}`,
    },
    pt: {
      reason: (p) =>
        `O reembolso #${p.refundId} da encomenda ${p.order} não tem nota de crédito: o dinheiro foi devolvido em ${p.refundCurrency}, a fatura está em ${p.invoiceCurrency}, e o reembolso da Shopify só dá esse valor em ${p.refundCurrency}`,
      whatToDo: () =>
        `Se a fatura foi emitida na moeda do cliente, ponha "currency": "presentment" nas definições Shopify e corra o reembolso outra vez; senão, emita a nota de crédito pelo conector ou à mão na MagniFinance. ${NOTHING_SENT.pt}`,
    },
  },
  'shopify-refund-other-order': {
    en: {
      reason: (p) => `Refund #${p.refundId} belongs to Shopify order ${p.refundOrderId}, not to order ${p.order} (${p.orderId}) given with it`,
      whatToDo: () => `Give the refund's own order (its order_id), for example with n8n's Shopify node (Order > Get) on {{ $json.order_id }}. ${NOTHING_SENT.en}`,
    },
    pt: {
      reason: (p) => `O reembolso #${p.refundId} pertence à encomenda Shopify ${p.refundOrderId}, não à encomenda ${p.order} (${p.orderId}) dada com ele`,
      whatToDo: () => `Dê a encomenda do próprio reembolso (o seu order_id), por exemplo com o nó Shopify do n8n (Order > Get) em {{ $json.order_id }}. ${NOTHING_SENT.pt}`,
    },
  },
};

export function shopifyText(lang: Lang, message: ShopifyMessage, part: 'reason' | 'whatToDo'): string {
  const entry = CATALOGUE[message.code][lang] as Entry<ShopifyMessage['params']>[Lang];
  return entry[part](message.params);
}

/** What a person does about a Shopify order the mapping held or refused (the reasons say why). */
export const SHOPIFY_ORDER_FIX: Record<Lang, string> = {
  en: `${NOTHING_SENT.en} Do what the reasons say on the order in Shopify (for example add the buyer's NIF in its attribute, or the billing address), or change the Mapping Settings or the Shopify Settings, then run the order again: with a Shopify Trigger on orders/updated, editing the order sends it again. Its External ID keeps a second run from issuing twice.`,
  pt: `${NOTHING_SENT.pt} Faça o que as razões dizem na encomenda na Shopify (por exemplo o NIF do cliente no seu atributo, ou a morada de faturação), ou mude as definições de mapeamento ou as definições Shopify, e corra a encomenda outra vez: com um Shopify Trigger em orders/updated, editar a encomenda envia-a de novo. O seu External ID impede uma segunda emissão.`,
};
