/**
 * How the app names a customer's fields, in one place: the form's labels, and the same words in
 * the conflicts panel ("Phone", not "Phone number").
 */

/** The fields the customer form edits, with their labels, in the form's order. */
export const CUSTOMER_FIELDS = [
  ['firstname', 'First name'],
  ['lastname', 'Last name'],
  ['company', 'Company'],
  ['email', 'E-mail'],
  ['phone_number', 'Phone'],
  ['city', 'City'],
  ['note_internal', 'Note (staff only)'],
] as const;

/** A field the customer form edits. */
export type CustomerFieldName = (typeof CUSTOMER_FIELDS)[number][0];

/** Labels of the customer fields the form does not show, as a shop would say them. */
const OTHER_CUSTOMER_LABELS: Record<string, string> = {
  street: 'Street',
  zip_code: 'Postcode',
  country_code: 'Country',
  company_ico: 'Company ID (IČO)',
  company_dic: 'VAT ID (DIČ)',
  note_external: 'Note (on receipts)',
  date_birthday: 'Birthday',
  date_expires: 'Valid until',
  barcode: 'Card barcode',
  price_group: 'Price group',
  price_discount: 'Discount',
  customer_type: 'Customer type',
  tags: 'Tags',
  visible: 'Shown at the registers',
  _d: 'Deleted',
};

const LABELS = new Map<string, string>([...CUSTOMER_FIELDS, ...Object.entries(OTHER_CUSTOMER_LABELS)]);

/** The label of a record field: the form's word for customer fields, else the field name in words. */
export function fieldLabel(collection: string, field: string): string {
  const known = collection === 'customers' ? LABELS.get(field) : field === '_d' ? 'Deleted' : undefined;
  if (known) return known;
  const text = field.replace(/^id_/, '').replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
