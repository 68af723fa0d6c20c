import type { Readable } from 'node:stream';
import type PDFKitDocument from 'pdfkit';
import { formatUsd } from '../../../common/money.ts';
import type { OrderBusiness } from '../../db/schema/orders.ts';

/** What one of the shop's own documents (an invoice or a credit note) shows. */
export type InvoiceDocument = {
  kind: 'invoice' | 'credit_note';
  number: string;
  /** The invoice a credit note corrects. */
  corrects?: string;
  /** The payment's (or the refund's) date, YYYY-MM-DD. */
  date: string;
  orderId: string;
  transactionId: string | null;
  currency: string;
  seller: { name: string; address: string[]; taxId: string | null };
  buyer: { name: string; email: string; business: OrderBusiness | null };
  /** Cents; a credit note's lines are what each refund gave back. */
  lines: { title: string; priceCents: number; discountCents: number; amountCents: number }[];
  taxCents: number;
  totalCents: number;
};

export const TEST_PAYMENT_NOTE = 'Test payment: no charge';

const money = (cents: number, currency: string) =>
  currency === 'USD' ? formatUsd(cents / 100) : `${currency} ${(cents / 100).toFixed(2)}`;

const countryName = (code: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
};

/** The buyer's block: the company (with its VAT ID and address) when there is one, then the person. */
function buyerLines(buyer: InvoiceDocument['buyer']): string[] {
  const b = buyer.business;
  if (!b) return [buyer.name, buyer.email].filter(Boolean);
  return [
    b.company_name,
    b.address_line,
    [b.postal_code, b.city].filter(Boolean).join(' '),
    countryName(b.country),
    b.vat_id ? `VAT ID: ${b.vat_id}` : null,
    `Attn: ${buyer.name || buyer.email}`,
    buyer.email,
  ].filter((line): line is string => Boolean(line));
}

/**
 * Renders an invoice or credit note as a PDF stream (pdfkit, the standard Helvetica, A4). Only the
 * sandbox's payments get these: every page says across it that no money moved. `PDFDocument` is
 * handed in so that pdfkit loads on the first invoice, not at start.
 */
export function renderInvoicePdf(PDFDocument: typeof PDFKitDocument, doc: InvoiceDocument): Readable {
  const title = doc.kind === 'invoice' ? 'Invoice' : 'Credit note';
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `${title} ${doc.number}`, Author: doc.seller.name, Subject: `Order ${doc.orderId}` },
  });
  const left = 50;
  const right = pdf.page.width - 50;
  const width = right - left;

  // The stamp first, so the document's text is drawn over it.
  pdf.save();
  pdf.rotate(-35, { origin: [pdf.page.width / 2, pdf.page.height / 2] });
  pdf
    .fontSize(40)
    .fillColor('#c62828', 0.18)
    .text(TEST_PAYMENT_NOTE.toUpperCase(), -100, pdf.page.height / 2 - 20, {
      width: pdf.page.width + 200,
      align: 'center',
      lineBreak: false,
    });
  pdf.restore();
  pdf.fillColor('#111111', 1);

  pdf.fontSize(22).font('Helvetica-Bold').text(title, left, 50);
  pdf.fontSize(10).font('Helvetica').fillColor('#c62828').text(TEST_PAYMENT_NOTE).fillColor('#111111');
  pdf.moveDown(0.5);
  const facts: [string, string][] = [
    [`${title} number`, doc.number],
    ...(doc.corrects ? ([['Corrects invoice', doc.corrects]] as [string, string][]) : []),
    ['Date', doc.date],
    ['Order', doc.orderId],
    ...(doc.transactionId ? ([['Transaction', doc.transactionId]] as [string, string][]) : []),
    ['Currency', doc.currency],
  ];
  for (const [label, value] of facts) pdf.text(`${label}: ${value}`);

  const partiesTop = pdf.y + 20;
  const column = (x: number, heading: string, lines: string[]) => {
    pdf
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(heading, x, partiesTop, { width: width / 2 - 10 });
    pdf.font('Helvetica');
    for (const line of lines) pdf.text(line, x, undefined, { width: width / 2 - 10 });
    return pdf.y;
  };
  const sellerEnd = column(left, 'Seller', [
    doc.seller.name,
    ...doc.seller.address,
    ...(doc.seller.taxId ? [`Tax ID: ${doc.seller.taxId}`] : []),
  ]);
  const buyerEnd = column(left + width / 2, 'Bill to', buyerLines(doc.buyer));

  // The lines: description, price, discount, amount.
  let y = Math.max(sellerEnd, buyerEnd) + 30;
  const cols = [
    { label: 'Description', x: left, w: width * 0.46, align: 'left' as const },
    { label: 'Price', x: left + width * 0.46, w: width * 0.18, align: 'right' as const },
    { label: 'Discount', x: left + width * 0.64, w: width * 0.18, align: 'right' as const },
    { label: 'Amount', x: left + width * 0.82, w: width * 0.18, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    const heights = cells.map((cell, i) => pdf.heightOfString(cell, { width: cols[i]!.w - 6 }));
    cells.forEach((cell, i) => {
      const c = cols[i]!;
      pdf.text(cell, c.x, y, { width: c.w - 6, align: c.align });
    });
    y += Math.max(...heights) + 6;
  };
  row(
    cols.map((c) => c.label),
    true,
  );
  pdf
    .moveTo(left, y - 3)
    .lineTo(right, y - 3)
    .strokeColor('#999999')
    .stroke();
  for (const line of doc.lines)
    row([
      line.title,
      money(line.priceCents, doc.currency),
      line.discountCents ? `-${money(line.discountCents, doc.currency)}` : '—',
      money(line.amountCents, doc.currency),
    ]);
  pdf.moveTo(left, y).lineTo(right, y).strokeColor('#999999').stroke();
  y += 10;

  const subtotal = doc.lines.reduce((sum, l) => sum + l.amountCents, 0);
  const totals: [string, string, boolean][] = [
    ['Subtotal', money(subtotal, doc.currency), false],
    ['Tax (0%)', money(doc.taxCents, doc.currency), false],
    [doc.kind === 'invoice' ? 'Total' : 'Total credited', money(doc.totalCents, doc.currency), true],
  ];
  for (const [label, value, bold] of totals) {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 12 : 10);
    pdf.text(label, left + width * 0.46, y, { width: width * 0.36 - 6, align: 'right' });
    pdf.text(value, left + width * 0.82, y, { width: width * 0.18 - 6, align: 'right' });
    y += bold ? 18 : 14;
  }

  pdf
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#555555')
    .text(
      `${TEST_PAYMENT_NOTE}: this order was paid with the shop's test payments, and no money was taken.` +
        (doc.kind === 'credit_note' ? ' This credit note corrects the invoice named above.' : ''),
      left,
      y + 30,
      { width },
    );
  pdf.end();
  return pdf as unknown as Readable;
}
