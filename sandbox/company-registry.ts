/**
 * Registered company data the emulated service knows besides its own accounts (Client Get).
 * Fictional companies with valid NIFs, so lookups can be tried without inventing numbers.
 */
export interface RegisteredCompany {
  NIF: string;
  Name: string;
  LegalName: string;
  Address: string;
  City: string;
  PostCode: string;
  CountryCode: string;
  CountryName: string;
  PhoneNumber: string;
  Email: string;
  IBAN: string;
}

export const BUILT_IN_COMPANIES: readonly RegisteredCompany[] = [
  {
    NIF: '505123452',
    Name: 'Livraria Atlântica',
    LegalName: 'Livraria Atlântica, Lda.',
    Address: 'Rua de Santa Catarina 200',
    City: 'Porto',
    PostCode: '4000-447',
    CountryCode: 'PT',
    CountryName: 'Portugal',
    PhoneNumber: '+351220000001',
    Email: 'geral@livraria-atlantica.example',
    IBAN: 'PT50000201231234567890154',
  },
  {
    NIF: '508000009',
    Name: 'Tipografia do Mondego',
    LegalName: 'Tipografia do Mondego, S.A.',
    Address: 'Avenida Fernão de Magalhães 50',
    City: 'Coimbra',
    PostCode: '3000-175',
    CountryCode: 'PT',
    CountryName: 'Portugal',
    PhoneNumber: '+351239000002',
    Email: 'contabilidade@tipografia-mondego.example',
    IBAN: '',
  },
  {
    NIF: '510000002',
    Name: 'Conservas Algarvias',
    LegalName: 'Conservas Algarvias, Unipessoal Lda.',
    Address: 'Zona Industrial, Lote 7',
    City: 'Olhão',
    PostCode: '8700-281',
    CountryCode: 'PT',
    CountryName: 'Portugal',
    PhoneNumber: '+351289000003',
    Email: 'faturas@conservas-algarvias.example',
    IBAN: '',
  },
  {
    NIF: 'B12345678',
    Name: 'Distribuciones Ibéricas',
    LegalName: 'Distribuciones Ibéricas, S.L.',
    Address: 'Calle Mayor 10',
    City: 'Madrid',
    PostCode: '28013',
    CountryCode: 'ES',
    CountryName: 'España',
    PhoneNumber: '+34910000004',
    Email: 'facturas@distribuciones-ibericas.example',
    IBAN: '',
  },
];
