/**
 * The schema layer: zod schemas of every resource of the service (a lenient `read` face and a
 * strict `write` face), collection facts, id fields, and the spec's unit conventions. No I/O.
 */
export { COLLECTIONS, isCollectionName, type CollectionName } from './collections.js';
export { COLLECTION_INFO, type CollectionInfo } from './collection-info.js';
export { schemas, isSchemaName, type SchemaName } from './schemas.js';
export {
  idField,
  nullableIdField,
  optionalIdField,
  optionalNullableIdField,
} from './id-field.js';
export { idFieldsOf, isIdFieldName, normalizeIdFields } from './id-fields.js';
export { parseRecord, type ParseRecordResult } from './parse-record.js';
export { validateWrite, type ValidateWriteOptions } from './validate-write.js';
export { isReadOnlyKey } from './record-schema.js';
export { categoryNodeSchema, categoryWriteSchema, type CategoryNode, type CategoryInput, type CategoryWrite } from './records/categories.js';
export { parseWarehouseStatus, warehouseStatusRowSchema, warehouseStatusSchema, type WarehouseStatusRow, type WarehouseStatus } from './records/warehouse-status.js';
export { moneyToDecimalString, decimalToMoney, formatMoney } from './money.js';
export { toIntlLocale } from './intl-locale.js';
export { reductionPercentToPercent, percentToReductionPercent } from './reduction-percent.js';
export { toDate, fromDate } from './time.js';
export type {
  RecordTypes,
  WriteInputTypes,
  WriteRecordTypes,
  RecordOf,
  WriteInputOf,
  WriteRecordOf,
  KnownFields,
  CreateInputOf,
  PartialUpdateOf,
  SaveInputOf,
  NoExtraFields,
  StoredRecordOf,
} from './types.js';
export type { Product, ProductInput, ProductWrite } from './records/products.js';
export type { Customer, CustomerInput, CustomerWrite } from './records/customers.js';
export type { PriceMatrixRow, PriceMatrixRowInput, PriceMatrixRowWrite } from './records/product-price-matrix.js';
export type { Shop, ShopInput, ShopWrite } from './records/shops.js';
export type { CashRegister, CashRegisterInput, CashRegisterWrite } from './records/cash-registers.js';
export type { Employee, EmployeeInput, EmployeeWrite } from './records/employees.js';
export type { ParkLocation, ParkLocationInput, ParkLocationWrite } from './records/park-locations.js';
export type { Shift, ShiftInput, ShiftWrite } from './records/shifts.js';
export type { StockHistoryRow, StockHistoryRowInput, StockHistoryRowWrite } from './records/stock-history.js';
export type { Stockup, StockupInput, StockupWrite } from './records/stockup.js';
export type { Transaction, TransactionInput, TransactionWrite } from './records/transactions.js';
export type { Warehouse, WarehouseInput, WarehouseWrite } from './records/warehouses.js';
export type { Order, OrderInput, OrderWrite } from './records/orders.js';
export type { OrderDetail, OrderDetailInput, OrderDetailWrite } from './records/order-details.js';
