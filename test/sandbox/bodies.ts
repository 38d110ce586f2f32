/** Valid request bodies for tests; each test changes one thing. */

export interface LineBody {
  Code: string;
  Description: string;
  UnitPrice: number | string;
  Quantity: number | string;
  Unit: string;
  Type: string;
  TaxValue: number | string;
  ProductDiscount: number | string;
  CostCenter?: string;
}

export function line(overrides: Partial<LineBody> = {}): LineBody {
  return {
    Code: 'SKU-1',
    Description: 'Caneca de cerâmica',
    UnitPrice: 10,
    Quantity: 2,
    Unit: 'UN',
    Type: 'P',
    TaxValue: 23,
    ProductDiscount: 0,
    ...overrides,
  };
}

export type Json = Record<string, unknown>;

export function client(overrides: Json = {}): Json {
  return { Name: 'Maria Silva', NIF: '999999990', CountryCode: 'PT', ...overrides };
}

export function documentBody(document: Json = {}, top: Json = {}): Json {
  return {
    IsToClose: true,
    Client: client(),
    Document: { Type: 'T', Date: '2026-03-02', DueDate: '2026-03-03', Lines: [line()], ...document },
    ...top,
  };
}

export function address(overrides: Json = {}): Json {
  return { AddressDetail: 'Rua Augusta 100', City: 'Lisboa', PostalCode: '1100-053', CountryCode: 'PT', ...overrides };
}

export function waybillBody(waybill: Json = {}, top: Json = {}): Json {
  return {
    IsToClose: true,
    Client: client({ NIF: '505123452', Name: 'Livraria Atlântica' }),
    Waybill: {
      Type: 'W',
      Date: '2026-03-02',
      LoadDateTime: '2026-03-02T09:30:00',
      LoadAddress: address(),
      DestinationAddress: address({ AddressDetail: 'Rua de Santa Catarina 200', City: 'Porto', PostalCode: '4000-447' }),
      Lines: [line()],
      ...waybill,
    },
    ...top,
  };
}
