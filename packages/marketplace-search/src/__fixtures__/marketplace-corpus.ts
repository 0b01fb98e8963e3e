import type { SearchableInstance } from '../instance-text';

/**
 * A realistic generated marketplace for search-quality tests and benchmarks: 52 kinds of data
 * product over 10 domains, each deployed for several business units, with output ports, data
 * contract columns, tags and a workload. Deterministic.
 */

type Column = [name: string, dataType: string, description: string];
interface Archetype {
  domain: string;
  slug: string;
  name: string;
  description: string;
  port: string;
  columns: Column[];
  tags: string[];
}

const A = (
  domain: string,
  slug: string,
  name: string,
  description: string,
  port: string,
  columns: Column[],
  tags: string[],
): Archetype => ({ domain, slug, name, description, port, columns, tags });

export const ARCHETYPES: Archetype[] = [
  // finance
  A(
    'finance',
    'invoices',
    'Invoices',
    'Issued invoices with net amount, tax and due date.',
    'invoice-lines',
    [
      ['invoice_id', 'STRING', 'Invoice number'],
      ['net_amount', 'DECIMAL', 'Amount before tax'],
      ['vat_amount', 'DECIMAL', 'Value added tax'],
      ['due_date', 'DATE', 'Payment due date'],
    ],
    ['accounting'],
  ),
  A(
    'finance',
    'ar-aging',
    'Receivables Aging',
    'Open receivables bucketed by days past due, per debtor.',
    'aging-buckets',
    [
      ['debtor_id', 'STRING', 'Debtor'],
      ['bucket', 'STRING', '0-30, 31-60, 61-90, over 90 days'],
      ['open_amount', 'DECIMAL', 'Unpaid balance'],
    ],
    ['credit-control'],
  ),
  A(
    'finance',
    'general-ledger',
    'General Ledger',
    'Journal entries posted to the chart of accounts, debit and credit.',
    'journal-entries',
    [
      ['account_code', 'STRING', 'Ledger account'],
      ['debit', 'DECIMAL', 'Debit amount'],
      ['credit', 'DECIMAL', 'Credit amount'],
      ['posting_date', 'DATE', 'Posting date'],
    ],
    ['accounting', 'close'],
  ),
  A(
    'finance',
    'fx-rates',
    'Exchange Rates',
    'Daily foreign exchange reference rates against the euro.',
    'daily-rates',
    [
      ['currency', 'STRING', 'ISO 4217 code'],
      ['rate', 'DECIMAL', 'Units per euro'],
      ['as_of', 'DATE', 'Rate date'],
    ],
    ['treasury'],
  ),
  A(
    'finance',
    'budget-plan',
    'Budget Plan',
    'Approved yearly budget by cost centre and month.',
    'budget-lines',
    [
      ['cost_centre', 'STRING', 'Cost centre'],
      ['month', 'DATE', 'Budget month'],
      ['planned_amount', 'DECIMAL', 'Approved amount'],
    ],
    ['controlling'],
  ),
  A(
    'finance',
    'expense-claims',
    'Expense Claims',
    'Travel and expense reports submitted by staff with receipts and approval state.',
    'claims',
    [
      ['claim_id', 'STRING', 'Claim'],
      ['employee_id', 'STRING', 'Claimant'],
      ['amount', 'DECIMAL', 'Claimed amount'],
      ['approved', 'BOOLEAN', 'Approved by manager'],
    ],
    ['controlling'],
  ),
  A(
    'finance',
    'payments',
    'Supplier Payments',
    'Outgoing bank transfers to suppliers with IBAN and value date.',
    'transfers',
    [
      ['payment_id', 'STRING', 'Transfer'],
      ['iban', 'STRING', 'Beneficiary IBAN'],
      ['amount', 'DECIMAL', 'Paid amount'],
      ['value_date', 'DATE', 'Value date'],
    ],
    ['treasury'],
  ),
  // sales
  A(
    'sales',
    'orders',
    'Sales Orders',
    'Customer orders with order lines, quantities and prices.',
    'order-lines',
    [
      ['order_id', 'STRING', 'Order'],
      ['sku', 'STRING', 'Product code'],
      ['quantity', 'INTEGER', 'Units ordered'],
      ['unit_price', 'DECIMAL', 'Price per unit'],
    ],
    ['commerce'],
  ),
  A(
    'sales',
    'pipeline',
    'Opportunity Pipeline',
    'Open opportunities by stage, expected close date and weighted value.',
    'opportunities',
    [
      ['opportunity_id', 'STRING', 'Opportunity'],
      ['stage', 'STRING', 'Qualification, proposal, negotiation'],
      ['weighted_value', 'DECIMAL', 'Value times win probability'],
    ],
    ['crm'],
  ),
  A(
    'sales',
    'quotes',
    'Quotations',
    'Price quotes sent to prospects with validity period and discount.',
    'quote-lines',
    [
      ['quote_id', 'STRING', 'Quote'],
      ['discount_pct', 'DECIMAL', 'Discount percent'],
      ['valid_until', 'DATE', 'Validity end'],
    ],
    ['crm'],
  ),
  A(
    'sales',
    'price-list',
    'Price List',
    'List prices per product and sales channel.',
    'prices',
    [
      ['sku', 'STRING', 'Product code'],
      ['channel', 'STRING', 'Sales channel'],
      ['list_price', 'DECIMAL', 'List price'],
    ],
    ['pricing'],
  ),
  A(
    'sales',
    'commissions',
    'Sales Commissions',
    'Commission earned by each sales representative per quarter.',
    'commission-statements',
    [
      ['rep_id', 'STRING', 'Sales representative'],
      ['quarter', 'STRING', 'Fiscal quarter'],
      ['commission', 'DECIMAL', 'Commission amount'],
    ],
    ['compensation'],
  ),
  A(
    'sales',
    'returns',
    'Product Returns',
    'Returned goods with reason and refund amount.',
    'return-lines',
    [
      ['return_id', 'STRING', 'Return'],
      ['reason', 'STRING', 'Damaged, wrong item, not needed'],
      ['refund_amount', 'DECIMAL', 'Refunded amount'],
    ],
    ['after-sales'],
  ),
  // marketing
  A(
    'marketing',
    'campaigns',
    'Campaign Performance',
    'Impressions, clicks and conversions of advertising campaigns per day.',
    'campaign-daily',
    [
      ['campaign_id', 'STRING', 'Campaign'],
      ['impressions', 'INTEGER', 'Ad impressions'],
      ['clicks', 'INTEGER', 'Clicks'],
      ['conversions', 'INTEGER', 'Conversions'],
    ],
    ['advertising'],
  ),
  A(
    'marketing',
    'churn-scores',
    'Churn Scores',
    'Predicted probability that a subscriber cancels in the next 90 days.',
    'scores',
    [
      ['customer_id', 'STRING', 'Customer'],
      ['churn_probability', 'DOUBLE', 'Probability of cancelling'],
      ['scored_at', 'TIMESTAMP', 'Scoring time'],
    ],
    ['machine-learning', 'retention'],
  ),
  A(
    'marketing',
    'newsletter',
    'Newsletter Subscriptions',
    'Email opt-ins and opt-outs with consent timestamp.',
    'subscriptions',
    [
      ['email_hash', 'STRING', 'Hashed email address'],
      ['opted_in', 'BOOLEAN', 'Consent given'],
      ['consent_at', 'TIMESTAMP', 'Consent time'],
    ],
    ['gdpr', 'email'],
  ),
  A(
    'marketing',
    'web-sessions',
    'Web Sessions',
    'Website visits with landing page, referrer and session duration.',
    'sessions',
    [
      ['session_id', 'STRING', 'Visit'],
      ['landing_page', 'STRING', 'First page'],
      ['referrer', 'STRING', 'Referring site'],
      ['duration_s', 'INTEGER', 'Duration in seconds'],
    ],
    ['analytics', 'clickstream'],
  ),
  A(
    'marketing',
    'segments',
    'Customer Segments',
    'Customers grouped into segments by purchase behaviour and demographics.',
    'segment-membership',
    [
      ['customer_id', 'STRING', 'Customer'],
      ['segment', 'STRING', 'Segment name'],
      ['age_band', 'STRING', 'Age band'],
    ],
    ['personalisation'],
  ),
  A(
    'marketing',
    'loyalty',
    'Loyalty Points',
    'Points earned and redeemed in the rewards programme.',
    'points-ledger',
    [
      ['member_id', 'STRING', 'Programme member'],
      ['points_earned', 'INTEGER', 'Points earned'],
      ['points_redeemed', 'INTEGER', 'Points redeemed'],
    ],
    ['rewards'],
  ),
  // logistics
  A(
    'logistics',
    'shipments',
    'Shipment Tracking',
    'Parcel status events from carriers: picked up, in transit, delivered.',
    'tracking-events',
    [
      ['tracking_number', 'STRING', 'Carrier tracking number'],
      ['status', 'STRING', 'Event status'],
      ['event_time', 'TIMESTAMP', 'Event time'],
    ],
    ['carriers'],
  ),
  A(
    'logistics',
    'inventory',
    'Warehouse Inventory',
    'Stock on hand per warehouse location and product.',
    'stock-levels',
    [
      ['warehouse_id', 'STRING', 'Warehouse'],
      ['sku', 'STRING', 'Product code'],
      ['on_hand', 'INTEGER', 'Units in stock'],
    ],
    ['warehousing'],
  ),
  A(
    'logistics',
    'fleet',
    'Fleet Telemetry',
    'GPS position, speed and fuel level of delivery trucks.',
    'vehicle-positions',
    [
      ['vehicle_id', 'STRING', 'Truck'],
      ['latitude', 'DOUBLE', 'Latitude'],
      ['longitude', 'DOUBLE', 'Longitude'],
      ['fuel_level', 'DOUBLE', 'Fuel level percent'],
    ],
    ['iot', 'transport'],
  ),
  A(
    'logistics',
    'routes',
    'Route Plans',
    'Planned delivery routes with stops and estimated arrival times.',
    'route-stops',
    [
      ['route_id', 'STRING', 'Route'],
      ['stop_sequence', 'INTEGER', 'Stop order'],
      ['eta', 'TIMESTAMP', 'Estimated arrival'],
    ],
    ['transport'],
  ),
  A(
    'logistics',
    'customs',
    'Customs Declarations',
    'Import and export declarations with tariff codes and duties paid.',
    'declarations',
    [
      ['declaration_id', 'STRING', 'Declaration'],
      ['hs_code', 'STRING', 'Harmonized tariff code'],
      ['duty_amount', 'DECIMAL', 'Duty paid'],
    ],
    ['trade-compliance'],
  ),
  A(
    'logistics',
    'returns-logistics',
    'Reverse Logistics',
    'Collection and restocking of goods sent back by customers.',
    'return-pickups',
    [
      ['pickup_id', 'STRING', 'Pickup'],
      ['restocked', 'BOOLEAN', 'Put back in stock'],
      ['condition', 'STRING', 'Item condition'],
    ],
    ['warehousing'],
  ),
  // hr
  A(
    'hr',
    'headcount',
    'Headcount',
    'Employees per department, contract type and location at month end.',
    'headcount-monthly',
    [
      ['department', 'STRING', 'Department'],
      ['contract_type', 'STRING', 'Permanent or temporary'],
      ['employees', 'INTEGER', 'Number of employees'],
    ],
    ['workforce'],
  ),
  A(
    'hr',
    'payroll',
    'Payroll',
    'Monthly gross salary, deductions and net pay per employee.',
    'payslips',
    [
      ['employee_id', 'STRING', 'Employee'],
      ['gross_salary', 'DECIMAL', 'Gross salary'],
      ['net_pay', 'DECIMAL', 'Net pay'],
    ],
    ['compensation', 'pii'],
  ),
  A(
    'hr',
    'recruiting',
    'Recruiting Funnel',
    'Job applications by stage from application to hire.',
    'applications',
    [
      ['requisition_id', 'STRING', 'Open position'],
      ['candidate_stage', 'STRING', 'Screening, interview, offer, hired'],
      ['source', 'STRING', 'Job board or referral'],
    ],
    ['talent'],
  ),
  A(
    'hr',
    'absences',
    'Absence Records',
    'Sick leave and vacation days taken by employees.',
    'absences',
    [
      ['employee_id', 'STRING', 'Employee'],
      ['absence_type', 'STRING', 'Sick leave or vacation'],
      ['days', 'DECIMAL', 'Days absent'],
    ],
    ['workforce'],
  ),
  A(
    'hr',
    'training',
    'Learning Completions',
    'Courses and certifications completed by staff.',
    'completions',
    [
      ['employee_id', 'STRING', 'Employee'],
      ['course', 'STRING', 'Course title'],
      ['completed_at', 'DATE', 'Completion date'],
    ],
    ['talent'],
  ),
  A(
    'hr',
    'engagement',
    'Engagement Survey',
    'Answers to the yearly employee satisfaction survey.',
    'survey-answers',
    [
      ['question', 'STRING', 'Survey question'],
      ['score', 'INTEGER', 'Answer from 1 to 5'],
      ['team', 'STRING', 'Team'],
    ],
    ['people-analytics'],
  ),
  // manufacturing
  A(
    'manufacturing',
    'oee',
    'Line Efficiency',
    'Overall equipment effectiveness of production lines per shift.',
    'oee-shift',
    [
      ['line_id', 'STRING', 'Production line'],
      ['availability', 'DOUBLE', 'Availability'],
      ['performance', 'DOUBLE', 'Performance'],
      ['quality_rate', 'DOUBLE', 'Quality rate'],
    ],
    ['shop-floor'],
  ),
  A(
    'manufacturing',
    'defects',
    'Quality Defects',
    'Defects found in inspection with defect type and batch.',
    'defect-log',
    [
      ['batch_id', 'STRING', 'Production batch'],
      ['defect_type', 'STRING', 'Scratch, crack, misalignment'],
      ['inspected_at', 'TIMESTAMP', 'Inspection time'],
    ],
    ['quality'],
  ),
  A(
    'manufacturing',
    'maintenance',
    'Maintenance Work Orders',
    'Preventive and corrective maintenance jobs on machines.',
    'work-orders',
    [
      ['machine_id', 'STRING', 'Machine'],
      ['order_type', 'STRING', 'Preventive or corrective'],
      ['downtime_min', 'INTEGER', 'Downtime in minutes'],
    ],
    ['assets'],
  ),
  A(
    'manufacturing',
    'bom',
    'Bill of Materials',
    'Component parts and quantities that make up each finished product.',
    'bom-lines',
    [
      ['parent_sku', 'STRING', 'Finished product'],
      ['component_sku', 'STRING', 'Part'],
      ['quantity_per', 'DECIMAL', 'Quantity per unit'],
    ],
    ['engineering'],
  ),
  A(
    'manufacturing',
    'energy-meters',
    'Plant Energy Consumption',
    'Electricity and gas readings of plant meters every 15 minutes.',
    'meter-readings',
    [
      ['meter_id', 'STRING', 'Meter'],
      ['kwh', 'DOUBLE', 'Kilowatt hours'],
      ['read_at', 'TIMESTAMP', 'Reading time'],
    ],
    ['sustainability', 'iot'],
  ),
  // customer-service
  A(
    'customer-service',
    'tickets',
    'Support Tickets',
    'Customer support cases with priority, status and resolution time.',
    'tickets',
    [
      ['ticket_id', 'STRING', 'Case'],
      ['priority', 'STRING', 'Low to urgent'],
      ['resolution_hours', 'DOUBLE', 'Hours to resolve'],
    ],
    ['helpdesk'],
  ),
  A(
    'customer-service',
    'nps',
    'Net Promoter Score',
    'How likely customers are to recommend us, from 0 to 10, with comments.',
    'nps-responses',
    [
      ['customer_id', 'STRING', 'Customer'],
      ['score', 'INTEGER', '0 to 10'],
      ['comment', 'STRING', 'Free text'],
    ],
    ['feedback'],
  ),
  A(
    'customer-service',
    'call-center',
    'Call Centre Activity',
    'Inbound calls with wait time, handling time and agent.',
    'calls',
    [
      ['call_id', 'STRING', 'Call'],
      ['wait_seconds', 'INTEGER', 'Queue time'],
      ['agent_id', 'STRING', 'Agent'],
    ],
    ['contact-centre'],
  ),
  A(
    'customer-service',
    'chat-transcripts',
    'Chat Transcripts',
    'Messages exchanged in the website live chat.',
    'messages',
    [
      ['conversation_id', 'STRING', 'Conversation'],
      ['message_text', 'STRING', 'Message'],
      ['sent_at', 'TIMESTAMP', 'Sent time'],
    ],
    ['helpdesk', 'pii'],
  ),
  // it
  A(
    'it',
    'incidents',
    'IT Incidents',
    'Outages and service disruptions with severity and time to restore.',
    'incidents',
    [
      ['incident_id', 'STRING', 'Incident'],
      ['severity', 'STRING', 'Sev1 to Sev4'],
      ['minutes_to_restore', 'INTEGER', 'Time to restore'],
    ],
    ['operations'],
  ),
  A(
    'it',
    'access-logs',
    'Access Logs',
    'Sign-ins to internal applications with user, result and source address.',
    'sign-ins',
    [
      ['user_id', 'STRING', 'User'],
      ['succeeded', 'BOOLEAN', 'Sign-in result'],
      ['ip_address', 'STRING', 'Source address'],
    ],
    ['security'],
  ),
  A(
    'it',
    'cloud-costs',
    'Cloud Costs',
    'Daily spend of cloud accounts by service and team.',
    'daily-spend',
    [
      ['account', 'STRING', 'Cloud account'],
      ['service', 'STRING', 'Compute, storage, network'],
      ['cost', 'DECIMAL', 'Cost in euros'],
    ],
    ['finops'],
  ),
  A(
    'it',
    'assets-cmdb',
    'Configuration Items',
    'Servers, laptops and licences registered in the configuration database.',
    'configuration-items',
    [
      ['ci_id', 'STRING', 'Item'],
      ['ci_type', 'STRING', 'Server, laptop, licence'],
      ['owner', 'STRING', 'Owner'],
    ],
    ['itsm'],
  ),
  // procurement
  A(
    'procurement',
    'purchase-orders',
    'Purchase Orders',
    'Orders placed with suppliers with ordered quantity and agreed price.',
    'po-lines',
    [
      ['po_number', 'STRING', 'Purchase order'],
      ['supplier_id', 'STRING', 'Supplier'],
      ['agreed_price', 'DECIMAL', 'Agreed price'],
    ],
    ['sourcing'],
  ),
  A(
    'procurement',
    'suppliers',
    'Supplier Master',
    'Vendors with address, tax number and payment terms.',
    'vendors',
    [
      ['supplier_id', 'STRING', 'Supplier'],
      ['tax_number', 'STRING', 'Tax number'],
      ['payment_terms', 'STRING', 'Net 30, net 60'],
    ],
    ['master-data'],
  ),
  A(
    'procurement',
    'contracts',
    'Supplier Contracts',
    'Framework agreements with suppliers, start and end dates and renewal.',
    'agreements',
    [
      ['contract_id', 'STRING', 'Agreement'],
      ['end_date', 'DATE', 'Expiry date'],
      ['auto_renew', 'BOOLEAN', 'Renews automatically'],
    ],
    ['sourcing', 'legal'],
  ),
  A(
    'procurement',
    'spend-cube',
    'Spend Analysis',
    'Purchasing spend by category, supplier and business unit.',
    'spend',
    [
      ['category', 'STRING', 'Purchasing category'],
      ['supplier_id', 'STRING', 'Supplier'],
      ['spend', 'DECIMAL', 'Spend amount'],
    ],
    ['sourcing'],
  ),
  // risk
  A(
    'risk',
    'fraud-alerts',
    'Fraud Alerts',
    'Card transactions flagged as suspicious by the detection model.',
    'alerts',
    [
      ['transaction_id', 'STRING', 'Transaction'],
      ['risk_score', 'DOUBLE', 'Model score'],
      ['flagged_at', 'TIMESTAMP', 'Flag time'],
    ],
    ['machine-learning', 'security'],
  ),
  A(
    'risk',
    'credit-scores',
    'Credit Ratings',
    'Creditworthiness grade of business customers.',
    'ratings',
    [
      ['customer_id', 'STRING', 'Customer'],
      ['grade', 'STRING', 'AAA to D'],
      ['rated_at', 'DATE', 'Rating date'],
    ],
    ['credit-control'],
  ),
  A(
    'risk',
    'kyc',
    'Know Your Customer Checks',
    'Identity verification and sanctions screening of new customers.',
    'kyc-checks',
    [
      ['customer_id', 'STRING', 'Customer'],
      ['sanctions_hit', 'BOOLEAN', 'On a sanctions list'],
      ['verified_at', 'TIMESTAMP', 'Verification time'],
    ],
    ['compliance', 'pii'],
  ),
  A(
    'risk',
    'esg',
    'Carbon Emissions',
    'Scope 1, 2 and 3 greenhouse gas emissions in tonnes of CO2 equivalent.',
    'emissions',
    [
      ['scope', 'STRING', 'Scope 1, 2 or 3'],
      ['tonnes_co2e', 'DOUBLE', 'Tonnes CO2 equivalent'],
      ['period', 'STRING', 'Reporting period'],
    ],
    ['sustainability', 'reporting'],
  ),
];

/** Business units: each archetype is deployed once per unit. */
export const UNITS = ['Retail', 'Wholesale', 'Online', 'Corporate'] as const;

const UNIT_TEXT: Record<(typeof UNITS)[number], string> = {
  Retail: 'Data of the retail stores.',
  Wholesale: 'Data of the wholesale business with distributors.',
  Online: 'Data of the e-commerce web shop.',
  Corporate: 'Data of the corporate headquarters.',
};

/**
 * The system id of an archetype deployed for a unit (copy `n` when the marketplace is larger).
 *
 * @example
 * systemUrn('finance', 'invoices', 'Online'); // 'urn:dmb:dp:finance:invoices-online:0'
 */
export function systemUrn(domain: string, slug: string, unit: string, copy = 0): string {
  return `urn:dmb:dp:${domain}:${slug}-${unit.toLowerCase()}${copy > 0 ? `-${copy}` : ''}:0`;
}

/**
 * A generated marketplace: every archetype for every unit (208 instances), repeated with numbered
 * copies until `count` instances exist (benchmarks ask for 10,000).
 *
 * @example
 * generateMarketplace({ environment: 'production' }).length; // 208
 */
export function generateMarketplace(
  options: { environment: string; count?: number } = { environment: 'production' },
): SearchableInstance[] {
  const count = options.count ?? ARCHETYPES.length * UNITS.length;
  const out: SearchableInstance[] = [];
  for (let copy = 0; out.length < count; copy++) {
    for (const a of ARCHETYPES) {
      for (const unit of UNITS) {
        if (out.length >= count) break;
        const id = systemUrn(a.domain, a.slug, unit, copy);
        const base = id.replace('urn:dmb:dp:', '').replace(/:0$/, '');
        const name = `${a.name} ${unit}${copy > 0 ? ` ${copy + 1}` : ''}`;
        out.push({
          systemId: id,
          environment: options.environment,
          deployedAt: '2026-05-01T00:00:00.000Z',
          descriptor: {
            id,
            name,
            kind: 'dataproduct',
            domain: a.domain,
            version: '0.1.0',
            environment: options.environment,
            description: `${a.description} ${UNIT_TEXT[unit]}`,
            tags: [...a.tags, unit.toLowerCase()],
            components: [
              {
                id: `urn:dmb:cmp:${base}:0:${a.port}`,
                name: `${a.name} ${a.port.replace(/-/g, ' ')}`,
                kind: 'outputport',
                description: `${a.description}`,
                consumable: true,
                __dataContractEnabled: true,
                dataContract: {
                  schema: a.columns.map(([n, t, d]) => ({ name: n, dataType: t, description: d })),
                },
              },
              {
                id: `urn:dmb:cmp:${base}:0:ingestion`,
                name: 'ingestion job',
                kind: 'workload',
                description: 'Loads the source system extract every night.',
              },
            ],
          },
        });
      }
    }
  }
  return out;
}

/**
 * A query of the quality test with the instances it must find. `kind` says what it tests.
 */
export interface QualityQuery {
  q: string;
  kind: 'paraphrase' | 'exact-name' | 'urn' | 'mixed' | 'column';
  relevant: string[];
}

const all = (domain: string, slug: string): string[] =>
  UNITS.map((u) => systemUrn(domain, slug, u));
const one = (domain: string, slug: string, unit: string): string[] => [
  systemUrn(domain, slug, unit),
];

/** 44 queries: paraphrases and synonyms, exact names, URNs, unit + meaning, columns. */
export const QUALITY_QUERIES: QualityQuery[] = [
  // by meaning: words the instances do not use
  { q: 'bills we sent to clients', kind: 'paraphrase', relevant: all('finance', 'invoices') },
  {
    q: 'money customers still owe us that is overdue',
    kind: 'paraphrase',
    relevant: all('finance', 'ar-aging'),
  },
  { q: 'bookkeeping postings', kind: 'paraphrase', relevant: all('finance', 'general-ledger') },
  { q: 'currency conversion', kind: 'paraphrase', relevant: all('finance', 'fx-rates') },
  {
    q: 'travel reimbursement requests',
    kind: 'paraphrase',
    relevant: all('finance', 'expense-claims'),
  },
  { q: 'wire transfers to vendors', kind: 'paraphrase', relevant: all('finance', 'payments') },
  { q: 'deals in the funnel', kind: 'paraphrase', relevant: all('sales', 'pipeline') },
  { q: 'bonus paid to salespeople', kind: 'paraphrase', relevant: all('sales', 'commissions') },
  { q: 'refunds for items sent back', kind: 'paraphrase', relevant: all('sales', 'returns') },
  { q: 'advertising effectiveness', kind: 'paraphrase', relevant: all('marketing', 'campaigns') },
  {
    q: 'which subscribers are likely to leave',
    kind: 'paraphrase',
    relevant: all('marketing', 'churn-scores'),
  },
  { q: 'website traffic', kind: 'paraphrase', relevant: all('marketing', 'web-sessions') },
  { q: 'rewards programme members', kind: 'paraphrase', relevant: all('marketing', 'loyalty') },
  { q: 'where is my package', kind: 'paraphrase', relevant: all('logistics', 'shipments') },
  {
    q: 'stock levels in the warehouse',
    kind: 'paraphrase',
    relevant: all('logistics', 'inventory'),
  },
  { q: 'truck locations and fuel', kind: 'paraphrase', relevant: all('logistics', 'fleet') },
  { q: 'import duties and tariffs', kind: 'paraphrase', relevant: all('logistics', 'customs') },
  { q: 'salaries of employees', kind: 'paraphrase', relevant: all('hr', 'payroll') },
  { q: 'job candidates and hiring', kind: 'paraphrase', relevant: all('hr', 'recruiting') },
  { q: 'sick days and holidays', kind: 'paraphrase', relevant: all('hr', 'absences') },
  { q: 'staff happiness', kind: 'paraphrase', relevant: all('hr', 'engagement') },
  {
    q: 'machine breakdowns and repairs',
    kind: 'paraphrase',
    relevant: all('manufacturing', 'maintenance'),
  },
  {
    q: 'electricity usage of the factory',
    kind: 'paraphrase',
    relevant: all('manufacturing', 'energy-meters'),
  },
  {
    q: 'customer complaints handled by the helpdesk',
    kind: 'paraphrase',
    relevant: all('customer-service', 'tickets'),
  },
  {
    q: 'would customers recommend us',
    kind: 'paraphrase',
    relevant: all('customer-service', 'nps'),
  },
  { q: 'system outages', kind: 'paraphrase', relevant: all('it', 'incidents') },
  { q: 'login attempts', kind: 'paraphrase', relevant: all('it', 'access-logs') },
  {
    q: 'vendor agreements expiring',
    kind: 'paraphrase',
    relevant: all('procurement', 'contracts'),
  },
  { q: 'suspicious card payments', kind: 'paraphrase', relevant: all('risk', 'fraud-alerts') },
  { q: 'greenhouse gas footprint', kind: 'paraphrase', relevant: all('risk', 'esg') },
  // exact names
  { q: 'Invoices Online', kind: 'exact-name', relevant: one('finance', 'invoices', 'Online') },
  { q: 'Payroll Corporate', kind: 'exact-name', relevant: one('hr', 'payroll', 'Corporate') },
  {
    q: 'Fleet Telemetry Wholesale',
    kind: 'exact-name',
    relevant: one('logistics', 'fleet', 'Wholesale'),
  },
  {
    q: 'Churn Scores Retail',
    kind: 'exact-name',
    relevant: one('marketing', 'churn-scores', 'Retail'),
  },
  {
    q: 'Spend Analysis Online',
    kind: 'exact-name',
    relevant: one('procurement', 'spend-cube', 'Online'),
  },
  // URNs
  {
    q: 'urn:dmb:dp:finance:general-ledger-retail:0',
    kind: 'urn',
    relevant: one('finance', 'general-ledger', 'Retail'),
  },
  {
    q: 'urn:dmb:dp:it:cloud-costs-corporate:0',
    kind: 'urn',
    relevant: one('it', 'cloud-costs', 'Corporate'),
  },
  {
    q: 'urn:dmb:cmp:risk:kyc-online:0:kyc-checks',
    kind: 'urn',
    relevant: one('risk', 'kyc', 'Online'),
  },
  {
    q: 'urn:dmb:dp:sales:quotes-wholesale:0',
    kind: 'urn',
    relevant: one('sales', 'quotes', 'Wholesale'),
  },
  // a unit by word, the subject by meaning
  {
    q: 'web shop customers about to cancel',
    kind: 'mixed',
    relevant: one('marketing', 'churn-scores', 'Online'),
  },
  {
    q: 'wholesale distributors overdue debts',
    kind: 'mixed',
    relevant: one('finance', 'ar-aging', 'Wholesale'),
  },
  {
    q: 'retail stores parcel deliveries',
    kind: 'mixed',
    relevant: one('logistics', 'shipments', 'Retail'),
  },
  {
    q: 'headquarters employee salaries',
    kind: 'mixed',
    relevant: one('hr', 'payroll', 'Corporate'),
  },
  // by column
  { q: 'beneficiary iban', kind: 'column', relevant: all('finance', 'payments') },
  { q: 'hs_code', kind: 'column', relevant: all('logistics', 'customs') },
];
