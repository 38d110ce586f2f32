import type { CreateDocumentRequest, CreateWaybillRequest } from '../../client';

/** A valid invoice/receipt request; each test copies and breaks one thing. */
export function invoiceRequest(overrides: Partial<CreateDocumentRequest['Document']> = {}): CreateDocumentRequest {
  return {
    IsToClose: true,
    Client: {
      Name: 'Maria Silva',
      NIF: '123456789',
      CountryCode: 'PT',
      Address: 'Rua Augusta 1',
      City: 'Lisboa',
      PostCode: '1100-048',
      Email: 'maria@example.com',
    },
    Document: {
      Type: 'T',
      Date: '2026-11-20',
      DueDate: '2026-11-30',
      Description: 'Order 1001',
      Lines: [
        { Code: 'MUG', Description: 'Mug', UnitPrice: '10.00', Quantity: 2, Unit: 'un', Type: 'P', TaxValue: 23, ProductDiscount: 0 },
        { Code: 'SHIP', Description: 'Shipping', UnitPrice: 4.5, Quantity: '1', Unit: 'un', Type: 'S', TaxValue: '23', ProductDiscount: '0' },
        { Code: 'BOOK', Description: 'Book', UnitPrice: '15.99', Quantity: 1, Unit: 'un', Type: 'P', TaxValue: 6, ProductDiscount: 10 },
      ],
      ...overrides,
    },
  };
}

export function waybillRequest(overrides: Partial<CreateWaybillRequest['Waybill']> = {}): CreateWaybillRequest {
  return {
    IsToClose: true,
    Client: { Name: 'Maria Silva', NIF: '123456789', CountryCode: 'PT' },
    Waybill: {
      Type: 'W',
      Date: '2026-11-20',
      Description: 'Order 1001 goods',
      Lines: [{ Code: 'MUG', Description: 'Mug', UnitPrice: '10.00', Quantity: 2, Unit: 'un', Type: 'P', TaxValue: 23, ProductDiscount: 0 }],
      LoadDateTime: '2026-11-20T15:30:00',
      LoadAddress: { AddressDetail: 'Armazém 3, Rua do Porto', City: 'Porto', PostalCode: '4000-001', CountryCode: 'PT' },
      DestinationAddress: { AddressDetail: 'Rua Augusta 1', City: 'Lisboa', PostalCode: '1100-048', CountryCode: 'PT' },
      VehicleLicence: 'AA-00-BB',
      ...overrides,
    },
  };
}

/** Deep copy that keeps the static type, so a test can break one field. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
