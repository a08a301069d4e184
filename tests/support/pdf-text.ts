import { extractText, getDocumentProxy, getResolvedPDFJS } from 'unpdf';

/** Names as shoppers in both markets write them: Yoruba tones over dots below, Igbo, Zulu. */
export const NAMES = ['Adébáyọ̀ Ògúnlẹ́sì', 'Chiamaka Ńnàmdị', 'Nomvula Mkhize-Dlamini'];

/**
 * A PDF's text as a reader copies it out (pdf.js through unpdf, reading the fonts' ToUnicode
 * maps), each page's text NFC-normalised, so a name written with combining marks compares equal
 * to the same name typed precomposed.
 */
export async function pdfPages(pdf: Uint8Array): Promise<string[]> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(doc, { mergePages: false });
  return text.map((t) => t.normalize('NFC'));
}

/** The whole document's text, pages joined by a line break. */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  return (await pdfPages(pdf)).join('\n');
}

/** How many filled shapes (not text) each page draws: a QR code is one, a page of text and rules none. */
export async function pdfFilledShapes(pdf: Uint8Array): Promise<number[]> {
  const { OPS } = await getResolvedPDFJS();
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const counts: number[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const ops = await (await doc.getPage(p)).getOperatorList();
    counts.push(ops.fnArray.filter((fn, i) => fn === OPS.constructPath && [OPS.fill, OPS.eoFill].includes((ops.argsArray[i] as number[])[0]!)).length);
  }
  return counts;
}
