import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

/**
 * An output item with binary data beside its JSON (the PDF of a document). Operations return it
 * instead of plain JSON; the router keeps its binary part.
 */
export class ItemWithBinary {
  constructor(
    readonly json: IDataObject,
    readonly binary: IBinaryKeyData,
  ) {}
}

/** A file name from a document number ("FR A/12" -> "FR A-12.pdf"): no path separators. */
export function pdfFileName(documentNumber: string): string {
  return `${documentNumber.replace(/[\\/:*?"<>|]+/g, '-').trim()}.pdf`;
}

/**
 * Downloads the document's PDF through n8n's request helper (the link is signed and short-lived,
 * so no credential is sent to it) and attaches it as binary property `data`, named after the
 * document number, ready for an e-mail or storage node.
 */
export async function withPdf(
  this: IExecuteFunctions,
  json: IDataObject,
): Promise<IDataObject | ItemWithBinary> {
  const { downloadUrl, documentNumber } = json;
  if (typeof downloadUrl !== 'string' || typeof documentNumber !== 'string') return json;
  const data = (await this.helpers.httpRequest({
    method: 'GET',
    url: downloadUrl,
    encoding: 'arraybuffer',
    json: false,
  })) as ArrayBuffer | Buffer;
  const pdf = await this.helpers.prepareBinaryData(Buffer.from(data as ArrayBuffer), pdfFileName(documentNumber), 'application/pdf');
  return new ItemWithBinary(json, { data: pdf });
}
