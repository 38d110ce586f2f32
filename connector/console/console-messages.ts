import { z } from 'zod';
import { catalogue, fixed, words } from '../../messages/catalogue';

/**
 * The console's sentences with facts in them (the reader at the console: an owner or an agency's
 * operator), as codes with typed parameters per language (messages/catalogue.ts). The console's
 * labels without facts stay in the table of i18n.ts.
 */

const S = z.string();
const N = z.number();

export const CONSOLE = catalogue({
  // What an action did (the flash after a form).
  'marked-handled': words({ purpose: S }, { pt: (p) => `${p.purpose}: marcada como tratada`, en: (p) => `${p.purpose}: marked as handled` }),
  attached: words({ documentId: N }, { pt: (p) => `documento ${p.documentId} associado; o número e o PDF seguem para a encomenda`, en: (p) => `document ${p.documentId} attached; its number and PDF go to the order` }),
  'issuing-again': words(
    { purposes: S },
    { pt: (p) => `a emitir de novo (${p.purposes}); o resultado aparece nesta página dentro de momentos`, en: (p) => `being issued again (${p.purposes}); the result shows on this page in a moment` },
  ),
  'credit-note-asked': fixed({
    pt: 'a nota de crédito da fatura inteira está a ser emitida; o número aparece nesta página dentro de momentos',
    en: 'the credit note for the whole invoice is being issued; its number shows on this page in a moment',
  }),
  'invoice-cancel-asked': fixed({
    pt: 'a fatura está a ser anulada na MagniFinance; o resultado aparece nesta página dentro de momentos',
    en: 'the invoice is being cancelled on MagniFinance; the result shows on this page in a moment',
  }),
  'nothing-left': fixed({ pt: 'não havia mais nada a fazer nesta encomenda', en: 'nothing left to do for this order' }),
  'chosen-issuing': words({ order: N }, { pt: (p) => `#${p.order} ✓ a emitir`, en: (p) => `#${p.order} ✓ being issued` }),
  // Forms not filled in as they must be.
  'form-document-id': fixed({
    pt: 'indique o id do documento (um número positivo) que encontrou no back-office da MagniFinance',
    en: 'enter the document id (a positive number) found in the MagniFinance back-office',
  }),
  'form-incomplete': fixed({ pt: 'o formulário está incompleto: recarregue a página', en: 'the form is incomplete: reload the page' }),
  'form-dismiss-reason': fixed({
    pt: 'diga como a encomenda foi tratada (pelo menos 3 caracteres), por exemplo o número da fatura emitida à mão',
    en: 'say how the order was handled (at least 3 characters), e.g. the number of the invoice issued by hand',
  }),
  'form-choose-order': fixed({ pt: 'escolha pelo menos uma encomenda', en: 'choose at least one order' }),
  'choose-issuable': fixed({ pt: 'Escolha pelo menos uma encomenda que possa ser emitida.', en: 'Choose at least one order that can be issued.' }),
  /** An action that failed with an error the console does not word: the error's own text, labelled. */
  'action-error': words({ error: S }, { pt: (p) => `erro inesperado («${p.error}»)`, en: (p) => `unexpected error ("${p.error}")` }),
  // The preview.
  'cancel-preview': words(
    { number: S },
    {
      pt: (p) => `A regra de cancelamento da loja é anular a fatura: a fatura ${p.number} vai ser anulada na MagniFinance.`,
      en: (p) => `The shop's cancellation rule is to cancel the invoice: invoice ${p.number} will be cancelled on MagniFinance.`,
    },
  ),
  /** A credit note that would credit more than was invoiced (a partly credited invoice): how to credit the rest. */
  'binding-hold': words(
    { platform: S },
    {
      pt: (p) =>
        `Este documento não pode ser emitido, nem confirmado por uma pessoa: creditaria mais do que foi faturado. Para creditar o que falta, faça no ${p.platform} um reembolso só das linhas ainda não creditadas (o conector emite a nota de crédito desse reembolso), ou emita a nota de crédito à mão no back-office da MagniFinance.`,
      en: (p) =>
        `This document cannot be issued, not even confirmed by a person: it would credit more than was invoiced. To credit what is left, refund in ${p.platform} only the lines not credited yet (the connector issues that refund's credit note), or issue the credit note by hand in the MagniFinance back-office.`,
    },
  ),
  'refund-the-rest': words({ platform: S }, { pt: (p) => `Reembolsar o resto no ${p.platform}`, en: (p) => `Refund the rest in ${p.platform}` }),
  // The month.
  'not-saft': fixed({ pt: 'O ficheiro não é um SAF-T (PT) 1.04 de faturação', en: 'The file is not a SAF-T (PT) 1.04 sales file' }),
  // The order page.
  'not-an-order': fixed({ pt: 'a loja respondeu algo que não é uma encomenda', en: 'the shop answered something that is not an order' }),
  // The search.
  'search-more': words(
    { shown: N, total: S },
    {
      pt: (p) => `A loja encontrou ${p.total} encomendas com estes dados do cliente; mostram-se as ${p.shown} mais recentes. Acrescente uma palavra (o apelido, a localidade, o e-mail) para restringir a pesquisa.`,
      en: (p) => `The shop found ${p.total} orders with these customer details; the ${p.shown} most recent are shown. Add a word (the surname, the town, the e-mail) to narrow the search.`,
    },
  ),
  'asked-credit-note': words(
    { invoice: S },
    { pt: (p) => `reviu e pediu uma nota de crédito da fatura ${p.invoice} inteira`, en: (p) => `reviewed and asked for a credit note for the whole invoice ${p.invoice}` },
  ),
  /** The shop's company line when the partner token was found to be another company's (pipeline/company-guard.ts). */
  'company-wrong': words(
    { actual: S.optional(), actualTenant: S.optional(), actualPartner: S.optional() },
    {
      pt: (p) =>
        `o token de parceiro não é desta empresa${p.actual ? `: é da empresa ${p.actual}${p.actualPartner ? `, parceira da agência «${p.actualPartner}»` : ''}${p.actualTenant ? ` (loja "${p.actualTenant}")` : ''}` : ''}; nada é emitido até ser corrigido`,
      en: (p) =>
        `the partner token is not this company's${p.actual ? `: it is company ${p.actual}'s${p.actualPartner ? `, the agency's partner "${p.actualPartner}"` : ''}${p.actualTenant ? ` (tenant "${p.actualTenant}")` : ''}` : ''}; nothing is issued until it is corrected`,
    },
  ),
  'credit-note-whole': fixed({ pt: 'Nota de crédito da fatura inteira', en: 'Credit note for the whole invoice' }),
});
