import type { SearchableInstance } from '../instance-text';

/**
 * A held-out quality set: 80 systems written apart from the generated corpus the ranking was
 * first tuned on (other names, other wording, one instance each), and 52 queries in six
 * categories with their relevant systems judged by hand. Deterministic.
 */

interface HeldOutSystem {
  domain: string;
  slug: string;
  name: string;
  description: string;
  /** `column_name: description`, separated by `;`. */
  columns: string;
  tags: string[];
}

const S = (
  domain: string,
  slug: string,
  name: string,
  description: string,
  columns: string,
  tags: string[] = [],
): HeldOutSystem => ({ domain, slug, name, description, columns, tags });

export const HELD_OUT_SYSTEMS: HeldOutSystem[] = [
  // finance (10)
  S(
    'finance',
    'accounts-receivable',
    'Accounts Receivable',
    'Amounts that clients still owe us, per invoice and due date.',
    'client_id: Client; invoice_ref: Invoice; open_amount: Unpaid amount; due_on: Due date',
    ['credit'],
  ),
  S(
    'finance',
    'accounts-payable',
    'Accounts Payable',
    'Supplier bills we have yet to pay, with payment terms.',
    'supplier_id: Supplier; bill_ref: Bill number; amount_due: Amount to pay; terms: Payment terms',
    ['treasury'],
  ),
  S(
    'finance',
    'customer-invoices',
    'Customer Invoices',
    'Invoices issued to customers with net amount, tax and due date.',
    'invoice_no: Invoice number; net: Net amount; tax: Tax amount; due_date: Due date',
    ['billing'],
  ),
  S(
    'finance',
    'general-ledger',
    'General Ledger',
    'Journal entries posted to the chart of accounts.',
    'account: Ledger account; debit: Debit; credit: Credit; posted_on: Posting date',
    ['accounting'],
  ),
  S(
    'finance',
    'cash-position',
    'Cash Position',
    'Daily bank balances across all company accounts.',
    'bank_account: Bank account; balance: Closing balance; currency: Currency',
    ['treasury'],
  ),
  S(
    'finance',
    'currency-rates',
    'Currency Rates',
    'Daily foreign exchange reference rates against the euro.',
    'currency: ISO code; rate: Units per euro; as_of: Rate date',
    ['treasury'],
  ),
  S(
    'finance',
    'annual-budget',
    'Annual Budget',
    'Planned spending per cost centre and month for the fiscal year.',
    'cost_centre: Cost centre; month: Month; planned: Planned amount',
    ['controlling'],
  ),
  S(
    'finance',
    'tax-filings',
    'Tax Filings',
    'VAT and corporate income tax returns submitted to the authorities.',
    'filing_id: Filing; period: Tax period; tax_due: Tax due; submitted_on: Submission date',
    ['compliance'],
  ),
  S(
    'finance',
    'revenue-recognition',
    'Revenue Recognition',
    'Revenue recognised per contract and period under IFRS 15.',
    'contract_id: Contract; period: Period; recognised: Recognised revenue',
    ['accounting'],
  ),
  S(
    'finance',
    'expense-reports',
    'Expense Reports',
    'Business travel costs claimed by employees, with receipts.',
    'report_id: Report; employee_id: Employee; amount: Claimed amount; receipt: Receipt attached',
    ['controlling'],
  ),
  // sales (8)
  S(
    'sales',
    'sales-orders',
    'Sales Orders',
    'Orders placed by customers, with lines, quantities and prices.',
    'order_id: Order; sku: Article; qty: Quantity; price: Unit price',
    ['commerce'],
  ),
  S(
    'sales',
    'customer-revenue',
    'Customer Revenue',
    'Net revenue per customer and month.',
    'customer_id: Customer; month: Month; net_revenue: Net revenue',
    ['reporting'],
  ),
  S(
    'sales',
    'price-quotes',
    'Price Quotes',
    'Offers sent to prospects before they order.',
    'quote_id: Quote; prospect: Prospect; valid_until: Valid until; total: Offered total',
    ['commerce'],
  ),
  S(
    'sales',
    'sales-pipeline',
    'Sales Pipeline',
    'Open opportunities by stage and expected close date.',
    'opportunity: Opportunity; stage: Stage; close_date: Expected close; value: Weighted value',
    ['crm'],
  ),
  S(
    'sales',
    'sales-commissions',
    'Sales Commissions',
    'Variable pay earned by account managers on closed deals.',
    'rep_id: Account manager; deal_id: Deal; commission: Commission amount',
    ['crm'],
  ),
  S(
    'sales',
    'discount-approvals',
    'Discount Approvals',
    'Price reductions above the standard level and who approved them.',
    'deal_id: Deal; discount_pct: Discount percent; approver: Approver',
    ['pricing'],
  ),
  S(
    'sales',
    'sales-territories',
    'Sales Territories',
    'Regions assigned to each account manager.',
    'territory: Territory; region: Region; manager: Account manager',
    ['crm'],
  ),
  S(
    'sales',
    'subscription-contracts',
    'Subscription Contracts',
    'Recurring plans customers pay for monthly, with renewal date.',
    'subscription_id: Subscription; plan: Plan; mrr: Monthly recurring revenue; renews_on: Renewal date',
    ['recurring'],
  ),
  // marketing (7)
  S(
    'marketing',
    'campaign-results',
    'Campaign Results',
    'Impressions, clicks and conversions of paid advertising campaigns.',
    'campaign: Campaign; impressions: Impressions; clicks: Clicks; conversions: Conversions',
    ['ads'],
  ),
  S(
    'marketing',
    'email-newsletter',
    'Email Newsletter',
    'Opens and unsubscribes of the monthly newsletter.',
    'issue: Issue; opens: Opens; unsubscribes: Unsubscribes',
    ['email'],
  ),
  S(
    'marketing',
    'web-analytics',
    'Web Analytics',
    'Page views, visits and bounce rate of the company website.',
    'page: Page; views: Views; visits: Visits; bounce_rate: Bounce rate',
    ['digital'],
  ),
  S(
    'marketing',
    'customer-segments',
    'Customer Segments',
    'Customers grouped by buying behaviour and value.',
    'customer_id: Customer; segment: Segment; lifetime_value: Lifetime value',
    ['crm'],
  ),
  S(
    'marketing',
    'loyalty-program',
    'Loyalty Program',
    'Points that members earn on purchases and redeem for rewards.',
    'member_id: Member; points: Points balance; tier: Tier',
    ['retention'],
  ),
  S(
    'marketing',
    'social-media-mentions',
    'Social Media Mentions',
    'Posts that mention our brand, with sentiment.',
    'post_id: Post; network: Network; sentiment: Sentiment',
    ['brand'],
  ),
  S(
    'marketing',
    'churn-prediction',
    'Churn Prediction',
    'Likelihood that a subscriber cancels within 90 days.',
    'subscriber_id: Subscriber; churn_probability: Probability of cancelling; drivers: Main reasons',
    ['retention', 'model'],
  ),
  // logistics (8)
  S(
    'logistics',
    'shipment-tracking',
    'Shipment Tracking',
    'Parcel status events from carriers.',
    'tracking_no: Tracking number; status: Status; carrier: Carrier; event_time: Event time',
    ['delivery'],
  ),
  S(
    'logistics',
    'warehouse-stock',
    'Warehouse Stock',
    'On-hand quantity per item and storage bin.',
    'item: Item; bin: Storage bin; on_hand: Quantity on hand',
    ['inventory'],
  ),
  S(
    'logistics',
    'vehicle-fleet',
    'Vehicle Fleet',
    'GPS position, mileage and fuel of our delivery trucks.',
    'vehicle_id: Truck; lat: Latitude; lon: Longitude; fuel_level: Fuel level',
    ['transport'],
  ),
  S(
    'logistics',
    'route-planning',
    'Route Planning',
    'Planned stops and driving times of each delivery tour.',
    'tour_id: Tour; stop: Stop; eta: Planned arrival',
    ['transport'],
  ),
  S(
    'logistics',
    'customs-declarations',
    'Customs Declarations',
    'Import and export filings with tariff codes and duties.',
    'declaration: Declaration; hs_code: Tariff code; duty: Duty paid',
    ['trade'],
  ),
  S(
    'logistics',
    'product-returns',
    'Product Returns',
    'Goods that buyers sent back, with reason and refund.',
    'return_id: Return; reason: Reason; refund: Refunded amount',
    ['aftersales'],
  ),
  S(
    'logistics',
    'freight-costs',
    'Freight Costs',
    'Carrier charges per shipment lane.',
    'lane: Lane; carrier: Carrier; charge: Charge per kilo',
    ['transport'],
  ),
  S(
    'logistics',
    'delivery-slots',
    'Delivery Slots',
    'Time windows offered to customers for home delivery.',
    'slot: Time window; capacity: Capacity; booked: Booked',
    ['delivery'],
  ),
  // hr (8)
  S(
    'hr',
    'employee-directory',
    'Employee Directory',
    'Employees with job title, department and manager.',
    'employee_id: Employee; title: Job title; department: Department; manager_id: Manager',
    ['people', 'pii'],
  ),
  S(
    'hr',
    'payroll',
    'Payroll',
    'Monthly gross and net pay per employee.',
    'employee_id: Employee; gross_pay: Gross pay; net_pay: Net pay; month: Month',
    ['people', 'pii'],
  ),
  S(
    'hr',
    'recruiting',
    'Recruiting',
    'Applicants, interviews and offers for open positions.',
    'applicant_id: Applicant; position: Position; stage: Interview stage; offer: Offer made',
    ['people'],
  ),
  S(
    'hr',
    'leave-and-absence',
    'Leave and Absence',
    'Vacation and sick leave days taken by employees.',
    'employee_id: Employee; leave_type: Vacation or sick; days: Days',
    ['people'],
  ),
  S(
    'hr',
    'training-records',
    'Training Records',
    'Courses that employees completed and their certificates.',
    'employee_id: Employee; course: Course; completed_on: Completion date',
    ['people'],
  ),
  S(
    'hr',
    'performance-reviews',
    'Performance Reviews',
    'Yearly ratings and goals agreed between employees and their manager.',
    'employee_id: Employee; rating: Rating; goals_met: Goals met',
    ['people'],
  ),
  S(
    'hr',
    'employee-survey',
    'Employee Survey',
    'How satisfied employees say they are at work.',
    'question: Question; score: Score; team: Team',
    ['people'],
  ),
  S(
    'hr',
    'headcount-plan',
    'Headcount Plan',
    'Planned hires and leavers per department and quarter.',
    'department: Department; quarter: Quarter; planned_fte: Planned FTE',
    ['people'],
  ),
  // manufacturing (7)
  S(
    'manufacturing',
    'production-orders',
    'Production Orders',
    'Work orders released to the shop floor, with quantities.',
    'order_id: Production order; material: Material; qty: Quantity',
    ['plant'],
  ),
  S(
    'manufacturing',
    'machine-maintenance',
    'Machine Maintenance',
    'Breakdowns and repair work on production equipment.',
    'machine_id: Machine; fault: Fault; repair_hours: Repair hours',
    ['plant'],
  ),
  S(
    'manufacturing',
    'quality-inspections',
    'Quality Inspections',
    'Measured defects found when checking finished goods.',
    'lot: Lot; defect_type: Defect; inspected_on: Inspection date',
    ['plant'],
  ),
  S(
    'manufacturing',
    'bill-of-materials',
    'Bill of Materials',
    'Components and quantities that make up each product.',
    'parent: Product; component: Component; qty: Quantity',
    ['engineering'],
  ),
  S(
    'manufacturing',
    'plant-energy-usage',
    'Plant Energy Usage',
    'Electricity and gas consumed per plant per hour.',
    'plant: Plant; kwh: Kilowatt hours; gas_m3: Gas cubic metres',
    ['sustainability'],
  ),
  S(
    'manufacturing',
    'scrap-rates',
    'Scrap Rates',
    'Material wasted per production line and shift.',
    'line: Line; shift: Shift; scrap_kg: Scrap kilograms',
    ['plant'],
  ),
  S(
    'manufacturing',
    'line-efficiency',
    'Line Efficiency',
    'Availability, performance and quality of each production line (OEE).',
    'line: Line; availability: Availability; oee: OEE',
    ['plant'],
  ),
  // customer service (6)
  S(
    'customer-service',
    'support-tickets',
    'Support Tickets',
    'Issues that customers reported to the help desk and how they were solved.',
    'ticket_id: Ticket; category: Category; resolved_at: Resolved at',
    ['service'],
  ),
  S(
    'customer-service',
    'net-promoter-score',
    'Net Promoter Score',
    'Survey answers on how likely customers are to recommend us.',
    'respondent: Respondent; score: Score 0-10; comment: Comment',
    ['service'],
  ),
  S(
    'customer-service',
    'call-center',
    'Call Center',
    'Inbound calls, waiting times and agents.',
    'call_id: Call; agent: Agent; wait_seconds: Wait time',
    ['service'],
  ),
  S(
    'customer-service',
    'chat-logs',
    'Chat Logs',
    'Conversations between visitors and support agents on the website chat.',
    'session_id: Session; agent: Agent; message: Message',
    ['service', 'pii'],
  ),
  S(
    'customer-service',
    'warranty-claims',
    'Warranty Claims',
    'Repairs and replacements of faulty products under guarantee.',
    'claim_id: Claim; product: Product; outcome: Outcome',
    ['aftersales'],
  ),
  S(
    'customer-service',
    'help-articles',
    'Help Articles',
    'Self-service answers published in the help center.',
    'article_id: Article; title: Title; views: Views',
    ['service'],
  ),
  // it (7)
  S(
    'it',
    'it-incidents',
    'IT Incidents',
    'Outages and service disruptions with severity and time to restore.',
    'incident_id: Incident; severity: Severity; restored_at: Restored at',
    ['operations'],
  ),
  S(
    'it',
    'access-logs',
    'Access Logs',
    'Sign-ins to company applications, successful and failed.',
    'user_id: User; application: Application; success: Succeeded',
    ['security'],
  ),
  S(
    'it',
    'cloud-spend',
    'Cloud Spend',
    'Monthly bill of our cloud providers per service and team.',
    'service: Cloud service; team: Team; cost: Cost',
    ['finops'],
  ),
  S(
    'it',
    'software-licenses',
    'Software Licenses',
    'Seats bought and assigned per application.',
    'application: Application; seats: Seats bought; assigned: Seats assigned',
    ['assets'],
  ),
  S(
    'it',
    'device-inventory',
    'Device Inventory',
    'Laptops and phones handed out to staff.',
    'device_id: Device; model: Model; assigned_to: Assigned to',
    ['assets'],
  ),
  S(
    'it',
    'deployments',
    'Deployments',
    'Releases of our applications to production, with version and outcome.',
    'release: Release; version: Version; outcome: Outcome',
    ['engineering'],
  ),
  S(
    'it',
    'security-vulnerabilities',
    'Security Vulnerabilities',
    'Weaknesses found by scanners in our systems, with CVE and fix status.',
    'cve: CVE; system: System; fixed: Fixed',
    ['security'],
  ),
  // procurement (6)
  S(
    'procurement',
    'purchase-orders',
    'Purchase Orders',
    'Orders we placed with suppliers and their delivery status.',
    'po_number: Purchase order; supplier_id: Supplier; status: Status',
    ['buying'],
  ),
  S(
    'procurement',
    'supplier-master',
    'Supplier Master',
    'Companies we buy from, with address and bank details.',
    'supplier_id: Supplier; name: Name; country: Country; iban: Bank account',
    ['buying'],
  ),
  S(
    'procurement',
    'supplier-contracts',
    'Supplier Contracts',
    'Framework agreements with suppliers and their end dates.',
    'contract_id: Contract; supplier_id: Supplier; ends_on: End date',
    ['buying', 'legal'],
  ),
  S(
    'procurement',
    'spend-analysis',
    'Spend Analysis',
    'What we spend per category and supplier.',
    'category: Category; supplier_id: Supplier; spend: Spend',
    ['buying'],
  ),
  S(
    'procurement',
    'tenders',
    'Tenders',
    'Requests for quotation and the bids received.',
    'rfq_id: Request for quotation; bidder: Bidder; bid: Bid amount',
    ['buying'],
  ),
  S(
    'procurement',
    'supplier-ratings',
    'Supplier Ratings',
    'Scores of suppliers for on-time delivery and quality.',
    'supplier_id: Supplier; on_time: On-time rate; quality_score: Quality score',
    ['buying'],
  ),
  // risk and legal (7)
  S(
    'risk',
    'fraud-alerts',
    'Fraud Alerts',
    'Card transactions flagged as possibly fraudulent.',
    'transaction_id: Transaction; score: Fraud score; flagged_at: Flagged at',
    ['security'],
  ),
  S(
    'risk',
    'credit-scores',
    'Credit Scores',
    'Creditworthiness ratings of business customers.',
    'customer_id: Customer; score: Credit score; limit: Credit limit',
    ['credit'],
  ),
  S(
    'risk',
    'kyc-checks',
    'KYC Checks',
    'Identity verification and sanctions screening of new clients.',
    'client_id: Client; sanctions_hit: Sanctions hit; verified_at: Verified at',
    ['compliance', 'pii'],
  ),
  S(
    'risk',
    'carbon-emissions',
    'Carbon Emissions',
    'Greenhouse gas emissions in tonnes of CO2 equivalent per scope.',
    'scope: Scope; tonnes: Tonnes CO2e; period: Period',
    ['sustainability'],
  ),
  S(
    'risk',
    'privacy-requests',
    'Privacy Requests',
    'GDPR requests from people to see or erase their personal data.',
    'request_id: Request; type: Access or erasure; closed_at: Closed at',
    ['compliance'],
  ),
  S(
    'risk',
    'insurance-claims',
    'Insurance Claims',
    'Claims filed with our insurers for damage to property and vehicles.',
    'claim_id: Claim; insurer: Insurer; amount: Claimed amount',
    ['legal'],
  ),
  S(
    'risk',
    'audit-findings',
    'Audit Findings',
    'Issues raised by internal and external auditors and their remediation.',
    'finding_id: Finding; severity: Severity; due_on: Remediation due',
    ['compliance'],
  ),
  // retail and product (6)
  S(
    'retail',
    'product-catalog',
    'Product Catalog',
    'Items we sell, with description, category and list price.',
    'sku: Article; title: Title; category: Category; list_price: List price',
    ['commerce'],
  ),
  S(
    'retail',
    'price-history',
    'Price History',
    'Past list prices of every article with the date they changed.',
    'sku: Article; price: Price; valid_from: Valid from',
    ['pricing'],
  ),
  S(
    'retail',
    'store-locations',
    'Store Locations',
    'Address, opening hours and size of each shop.',
    'store_id: Store; address: Address; opening_hours: Opening hours',
    ['stores'],
  ),
  S(
    'retail',
    'store-footfall',
    'Store Footfall',
    'Visitors entering each shop per hour.',
    'store_id: Store; hour: Hour; visitors: Visitors',
    ['stores'],
  ),
  S(
    'retail',
    'point-of-sale',
    'Point of Sale Receipts',
    'Till receipts from the shops, line by line.',
    'receipt_id: Receipt; store_id: Store; sku: Article; amount: Amount',
    ['stores'],
  ),
  S(
    'retail',
    'office-leases',
    'Office Leases',
    'Rented buildings, rent per month and lease end.',
    'building: Building; rent: Monthly rent; lease_end: Lease end',
    ['facilities'],
  ),
];

/**
 * The system id of a held-out system.
 *
 * @example
 * heldOutUrn('payroll'); // 'urn:dmb:dp:heldout:payroll:0'
 */
export const heldOutUrn = (slug: string): string => `urn:dmb:dp:heldout:${slug}:0`;

/**
 * The held-out systems as deployed instances of one environment: each a data product with an
 * output port whose data contract lists the columns.
 *
 * @example
 * heldOutMarketplace('production').length; // 80
 */
export function heldOutMarketplace(environment: string): SearchableInstance[] {
  return HELD_OUT_SYSTEMS.map((s) => {
    const id = heldOutUrn(s.slug);
    return {
      systemId: id,
      environment,
      deployedAt: '2026-06-01T00:00:00.000Z',
      descriptor: {
        id,
        name: s.name,
        kind: 'dataproduct',
        domain: s.domain,
        version: '1.0.0',
        description: s.description,
        tags: s.tags,
        components: [
          {
            id: `urn:dmb:cmp:heldout:${s.slug}:0:output`,
            name: `${s.name} output`,
            kind: 'outputport',
            description: s.description,
            dataContract: {
              schema: s.columns.split(';').map((c) => {
                const [name, description] = c.split(':').map((p) => p.trim());
                return { name, dataType: 'STRING', description };
              }),
            },
          },
        ],
      },
    };
  });
}

/** What a quality query tests. */
export type QueryCategory =
  | 'exact-name'
  | 'words'
  | 'paraphrase'
  | 'synonym'
  | 'typo'
  | 'no-answer';

/** A held-out query and the slugs of the systems that answer it (none for `no-answer`). */
export interface HeldOutQuery {
  q: string;
  category: QueryCategory;
  relevant: string[];
}

const Q = (category: QueryCategory, q: string, ...relevant: string[]): HeldOutQuery => ({
  q,
  category,
  relevant: relevant.map(heldOutUrn),
});

/** 52 queries: 8 exact names, 11 by words, 10 paraphrases, 10 synonyms, 7 typos, 6 with no answer. */
export const HELD_OUT_QUERIES: HeldOutQuery[] = [
  Q('exact-name', 'Accounts Receivable', 'accounts-receivable'),
  Q('exact-name', 'Shipment Tracking', 'shipment-tracking'),
  Q('exact-name', 'payroll', 'payroll'),
  Q('exact-name', 'Churn Prediction', 'churn-prediction'),
  Q('exact-name', 'Software Licenses', 'software-licenses'),
  Q('exact-name', 'supplier master', 'supplier-master'),
  Q('exact-name', 'Store Footfall', 'store-footfall'),
  Q('exact-name', 'Bill of Materials', 'bill-of-materials'),

  Q('words', 'invoices', 'customer-invoices', 'accounts-receivable'),
  Q('words', 'customer revenue', 'customer-revenue'),
  Q('words', 'orders', 'sales-orders', 'purchase-orders', 'production-orders'),
  Q('words', 'carrier charges', 'freight-costs'),
  Q('words', 'sick leave', 'leave-and-absence'),
  Q('words', 'bounce rate', 'web-analytics'),
  Q('words', 'sanctions screening', 'kyc-checks'),
  Q('words', 'repair work on equipment', 'machine-maintenance'),
  Q('words', 'cloud providers bill', 'cloud-spend'),
  Q('words', 'opening hours', 'store-locations'),
  Q('words', 'gross pay', 'payroll'),

  Q('paraphrase', 'money owed by clients', 'accounts-receivable'),
  Q('paraphrase', 'where is my package', 'shipment-tracking'),
  Q('paraphrase', 'how much we pay our people', 'payroll'),
  Q('paraphrase', 'customers who might cancel their plan', 'churn-prediction'),
  Q('paraphrase', 'who reports to whom', 'employee-directory'),
  Q('paraphrase', 'would customers recommend us', 'net-promoter-score'),
  Q('paraphrase', 'laptops given to staff', 'device-inventory'),
  Q('paraphrase', 'what we still have to pay suppliers', 'accounts-payable'),
  Q('paraphrase', 'things customers sent back', 'product-returns'),
  Q('paraphrase', 'when did the website go down', 'it-incidents'),

  Q('synonym', 'client revenue', 'customer-revenue'),
  Q('synonym', 'wages', 'payroll'),
  Q('synonym', 'holiday days', 'leave-and-absence'),
  Q('synonym', 'lorry positions', 'vehicle-fleet'),
  Q('synonym', 'vendor invoices to pay', 'accounts-payable'),
  Q('synonym', 'equipment failures', 'machine-maintenance'),
  Q('synonym', 'staff appraisals', 'performance-reviews'),
  Q('synonym', 'shop visitors', 'store-footfall'),
  Q('synonym', 'job candidates', 'recruiting'),
  Q('synonym', 'merchandise catalogue', 'product-catalog'),

  Q('typo', 'ordres', 'sales-orders', 'purchase-orders', 'production-orders'),
  Q('typo', 'invioces', 'customer-invoices', 'accounts-receivable'),
  Q('typo', 'payrol', 'payroll'),
  Q('typo', 'shipmnet tracking', 'shipment-tracking'),
  Q('typo', 'warehose stock', 'warehouse-stock'),
  Q('typo', 'recruting', 'recruiting'),
  Q('typo', 'vulnerabilites', 'security-vulnerabilities'),

  Q('no-answer', 'weather forecast for tomorrow'),
  Q('no-answer', 'football match results'),
  Q('no-answer', 'chocolate cake recipe'),
  Q('no-answer', 'xqzv plorf'),
  Q('no-answer', 'cinema showtimes'),
  Q('no-answer', 'dinosaur fossils'),
];
