import { defineHandler } from '../src/index.js';
import { InvoiceCreated, OrderPlaced } from './fixtures.js';

export const onOrderPlaced = defineHandler(OrderPlaced, async function onOrderPlaced() {});
export const onInvoiceCreated = defineHandler(InvoiceCreated, async function onInvoiceCreated() {});
export const notAHandler = { hello: 'world' };
