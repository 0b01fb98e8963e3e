export { CodedError, hasBrand } from './coded-error';
