export { marketplacePages } from './marketplace-pages';
