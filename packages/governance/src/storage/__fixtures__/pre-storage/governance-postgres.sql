--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: __SCHEMA__; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA __SCHEMA__;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: current_results; Type: TABLE; Schema: __SCHEMA__; Owner: -
--

CREATE TABLE __SCHEMA__.current_results (
    contract_id text NOT NULL,
    policy_id text NOT NULL,
    environment text NOT NULL,
    seq bigint NOT NULL,
    status text NOT NULL,
    received_at text NOT NULL
);


--
-- Name: evaluation_results; Type: TABLE; Schema: __SCHEMA__; Owner: -
--

CREATE TABLE __SCHEMA__.evaluation_results (
    seq bigint NOT NULL,
    contract_id text NOT NULL,
    policy_id text NOT NULL,
    environment text NOT NULL,
    received_at text NOT NULL,
    submission json NOT NULL,
    details_conform boolean NOT NULL,
    status text NOT NULL,
    CONSTRAINT evaluation_results_status CHECK ((status = ANY (ARRAY['compliant'::text, 'violated'::text, 'unprocessable'::text])))
);


--
-- Name: evaluation_results_seq_seq; Type: SEQUENCE; Schema: __SCHEMA__; Owner: -
--

CREATE SEQUENCE __SCHEMA__.evaluation_results_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: evaluation_results_seq_seq; Type: SEQUENCE OWNED BY; Schema: __SCHEMA__; Owner: -
--

ALTER SEQUENCE __SCHEMA__.evaluation_results_seq_seq OWNED BY __SCHEMA__.evaluation_results.seq;


--
-- Name: instance_components; Type: TABLE; Schema: __SCHEMA__; Owner: -
--

CREATE TABLE __SCHEMA__.instance_components (
    component_id text NOT NULL,
    environment text NOT NULL,
    system_id text NOT NULL
);


--
-- Name: instance_guards; Type: TABLE; Schema: __SCHEMA__; Owner: -
--

CREATE TABLE __SCHEMA__.instance_guards (
    contract_id text NOT NULL,
    environment text NOT NULL,
    policy_id text NOT NULL,
    guardian_id text NOT NULL,
    system_id text NOT NULL
);


--
-- Name: instances; Type: TABLE; Schema: __SCHEMA__; Owner: -
--

CREATE TABLE __SCHEMA__.instances (
    system_id text NOT NULL,
    environment text NOT NULL,
    descriptor json NOT NULL,
    deployed_at text NOT NULL,
    plan_id text NOT NULL
);


--
-- Name: plans; Type: TABLE; Schema: __SCHEMA__; Owner: -
--

CREATE TABLE __SCHEMA__.plans (
    id text NOT NULL,
    status text NOT NULL,
    document json NOT NULL,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    environment text DEFAULT ''::text NOT NULL,
    owner text
);


--
-- Name: policies; Type: TABLE; Schema: __SCHEMA__; Owner: -
--

CREATE TABLE __SCHEMA__.policies (
    id text NOT NULL,
    name text NOT NULL,
    description text NOT NULL,
    resource_type text NOT NULL,
    trigger text NOT NULL,
    status text NOT NULL,
    environment text,
    template_id text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    CONSTRAINT policies_status_check CHECK ((status = ANY (ARRAY['draft'::text, 'grace'::text, 'enabled'::text]))),
    CONSTRAINT policies_trigger_check CHECK ((trigger = ANY (ARRAY['active'::text, 'passive'::text])))
);


--
-- Name: schema_migrations; Type: TABLE; Schema: __SCHEMA__; Owner: -
--

CREATE TABLE __SCHEMA__.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at text NOT NULL
);


--
-- Name: service_leases; Type: TABLE; Schema: __SCHEMA__; Owner: -
--

CREATE TABLE __SCHEMA__.service_leases (
    instance_id text NOT NULL,
    expires_at bigint NOT NULL
);


--
-- Name: templates; Type: TABLE; Schema: __SCHEMA__; Owner: -
--

CREATE TABLE __SCHEMA__.templates (
    id text NOT NULL,
    document json NOT NULL,
    registered_at text NOT NULL,
    updated_at text NOT NULL,
    environment text DEFAULT ''::text NOT NULL
);


--
-- Name: evaluation_results seq; Type: DEFAULT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.evaluation_results ALTER COLUMN seq SET DEFAULT nextval('__SCHEMA__.evaluation_results_seq_seq'::regclass);


--
-- Data for Name: current_results; Type: TABLE DATA; Schema: __SCHEMA__; Owner: -
--

INSERT INTO __SCHEMA__.current_results VALUES ('urn:dmb:cmp:fin:orders:0:port', 'pol-active', 'production', 3, 'compliant', '2026-11-27T10:00:03.000Z');


--
-- Data for Name: evaluation_results; Type: TABLE DATA; Schema: __SCHEMA__; Owner: -
--

INSERT INTO __SCHEMA__.evaluation_results VALUES (1, 'urn:dmb:cmp:fin:orders:0:port', 'pol-active', 'production', '2026-11-27T10:00:01.000Z', '{"result":{"satisfiesPolicy":true},"n":0,"text":"naïve ✓"}', true, 'compliant');
INSERT INTO __SCHEMA__.evaluation_results VALUES (2, 'urn:dmb:cmp:fin:orders:0:port', 'pol-active', 'production', '2026-11-27T10:00:02.000Z', '{"result":{"satisfiesPolicy":false},"n":1,"text":"naïve ✓"}', true, 'violated');
INSERT INTO __SCHEMA__.evaluation_results VALUES (3, 'urn:dmb:cmp:fin:orders:0:port', 'pol-active', 'production', '2026-11-27T10:00:03.000Z', '{"result":{"satisfiesPolicy":true},"n":2,"text":"naïve ✓"}', true, 'compliant');


--
-- Data for Name: instance_components; Type: TABLE DATA; Schema: __SCHEMA__; Owner: -
--

INSERT INTO __SCHEMA__.instance_components VALUES ('urn:dmb:cmp:fin:orders:0:guardian', 'production', 'urn:dmb:dp:fin:orders:0');
INSERT INTO __SCHEMA__.instance_components VALUES ('urn:dmb:cmp:fin:orders:0:port', 'production', 'urn:dmb:dp:fin:orders:0');


--
-- Data for Name: instance_guards; Type: TABLE DATA; Schema: __SCHEMA__; Owner: -
--

INSERT INTO __SCHEMA__.instance_guards VALUES ('urn:dmb:cmp:fin:orders:0:port', 'production', 'pol-active', 'urn:dmb:cmp:fin:orders:0:guardian', 'urn:dmb:dp:fin:orders:0');


--
-- Data for Name: instances; Type: TABLE DATA; Schema: __SCHEMA__; Owner: -
--

INSERT INTO __SCHEMA__.instances VALUES ('urn:dmb:dp:fin:orders:0', 'production', '{"id":"urn:dmb:dp:fin:orders:0","components":[{"id":"urn:dmb:cmp:fin:orders:0:port","__dataContractEnabled":true},{"id":"urn:dmb:cmp:fin:orders:0:guardian","__dataContractGuardianSpec":{"guards":[{"dataContractId":"urn:dmb:cmp:fin:orders:0:port"}]},"info":{"privateInfo":{"__dataContractGuardian":{"policyId":"pol-active"}}}}]}', '2026-11-27T10:00:00.000Z', 'plan-1');


--
-- Data for Name: plans; Type: TABLE DATA; Schema: __SCHEMA__; Owner: -
--

INSERT INTO __SCHEMA__.plans VALUES ('plan-1', 'running', '{"id":"plan-1","operation":"deploy","environment":"production","systemId":"urn:dmb:dp:fin:orders:0","systemKind":"dataproduct","status":"running","createdAt":"2026-11-27T10:00:00.000Z","updatedAt":"2026-11-27T10:00:00.000Z","tasks":[],"errors":[]}', '2026-11-27T10:00:00.000Z', '2026-11-27T10:00:00.000Z', 'production', 'instance-a');


--
-- Data for Name: policies; Type: TABLE DATA; Schema: __SCHEMA__; Owner: -
--

INSERT INTO __SCHEMA__.policies VALUES ('9e89c0bb-9796-4d35-9b47-233db907c128', 'Guarded', 'Checks contracts', 'dataproduct', 'passive', 'enabled', NULL, 'urn:dmb:itm:guardian:1', '2026-11-27T10:00:00.000Z', '2026-11-27T10:00:00.000Z');
INSERT INTO __SCHEMA__.policies VALUES ('pol-active', 'Active policy', 'An active one', 'outputport', 'active', 'grace', 'production', NULL, '2026-11-27T10:00:00.000Z', '2026-11-27T10:00:00.000Z');


--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: __SCHEMA__; Owner: -
--

INSERT INTO __SCHEMA__.schema_migrations VALUES (1, 'initial schema', '2026-11-28T03:33:10.926Z');
INSERT INTO __SCHEMA__.schema_migrations VALUES (2, 'compliance status stored with each result; component index of instances', '2026-11-28T03:33:11.046Z');
INSERT INTO __SCHEMA__.schema_migrations VALUES (3, 'environment of plans as a column, for the plan list', '2026-11-28T03:33:11.065Z');
INSERT INTO __SCHEMA__.schema_migrations VALUES (4, 'template registrations per environment; index of guarded contracts; plan leases', '2026-11-28T03:33:11.101Z');


--
-- Data for Name: service_leases; Type: TABLE DATA; Schema: __SCHEMA__; Owner: -
--

INSERT INTO __SCHEMA__.service_leases VALUES ('instance-a', 1795840391195);


--
-- Data for Name: templates; Type: TABLE DATA; Schema: __SCHEMA__; Owner: -
--

INSERT INTO __SCHEMA__.templates VALUES ('urn:dmb:itm:guardian:1', '{"id":"urn:dmb:itm:guardian:1","environment":"production","url":"http://guardian"}', '2026-11-27T10:00:00.000Z', '2026-11-27T10:00:00.000Z', 'production');
INSERT INTO __SCHEMA__.templates VALUES ('urn:dmb:itm:plain:1', '{"id":"urn:dmb:itm:plain:1","url":"http://plain"}', '2026-11-27T10:00:00.000Z', '2026-11-27T10:00:00.000Z', '');


--
-- Name: evaluation_results_seq_seq; Type: SEQUENCE SET; Schema: __SCHEMA__; Owner: -
--

SELECT pg_catalog.setval('__SCHEMA__.evaluation_results_seq_seq', 3, true);


--
-- Name: current_results current_results_pkey; Type: CONSTRAINT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.current_results
    ADD CONSTRAINT current_results_pkey PRIMARY KEY (contract_id, policy_id, environment);


--
-- Name: evaluation_results evaluation_results_pkey; Type: CONSTRAINT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.evaluation_results
    ADD CONSTRAINT evaluation_results_pkey PRIMARY KEY (seq);


--
-- Name: instance_components instance_components_pkey; Type: CONSTRAINT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.instance_components
    ADD CONSTRAINT instance_components_pkey PRIMARY KEY (component_id, environment, system_id);


--
-- Name: instance_guards instance_guards_pkey; Type: CONSTRAINT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.instance_guards
    ADD CONSTRAINT instance_guards_pkey PRIMARY KEY (contract_id, environment, policy_id, guardian_id, system_id);


--
-- Name: instances instances_pkey; Type: CONSTRAINT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.instances
    ADD CONSTRAINT instances_pkey PRIMARY KEY (system_id, environment);


--
-- Name: plans plans_pkey; Type: CONSTRAINT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.plans
    ADD CONSTRAINT plans_pkey PRIMARY KEY (id);


--
-- Name: policies policies_pkey; Type: CONSTRAINT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.policies
    ADD CONSTRAINT policies_pkey PRIMARY KEY (id);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: service_leases service_leases_pkey; Type: CONSTRAINT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.service_leases
    ADD CONSTRAINT service_leases_pkey PRIMARY KEY (instance_id);


--
-- Name: templates templates_pkey; Type: CONSTRAINT; Schema: __SCHEMA__; Owner: -
--

ALTER TABLE ONLY __SCHEMA__.templates
    ADD CONSTRAINT templates_pkey PRIMARY KEY (id, environment);


--
-- Name: current_results_environment; Type: INDEX; Schema: __SCHEMA__; Owner: -
--

CREATE INDEX current_results_environment ON __SCHEMA__.current_results USING btree (environment, contract_id);


--
-- Name: evaluation_results_contract; Type: INDEX; Schema: __SCHEMA__; Owner: -
--

CREATE INDEX evaluation_results_contract ON __SCHEMA__.evaluation_results USING btree (contract_id, environment, seq);


--
-- Name: instance_components_instance; Type: INDEX; Schema: __SCHEMA__; Owner: -
--

CREATE INDEX instance_components_instance ON __SCHEMA__.instance_components USING btree (system_id, environment);


--
-- Name: instance_guards_instance; Type: INDEX; Schema: __SCHEMA__; Owner: -
--

CREATE INDEX instance_guards_instance ON __SCHEMA__.instance_guards USING btree (system_id, environment);


--
-- Name: plans_created; Type: INDEX; Schema: __SCHEMA__; Owner: -
--

CREATE INDEX plans_created ON __SCHEMA__.plans USING btree (created_at);


--
-- Name: plans_environment_created; Type: INDEX; Schema: __SCHEMA__; Owner: -
--

CREATE INDEX plans_environment_created ON __SCHEMA__.plans USING btree (environment, created_at);


--
-- Name: plans_status; Type: INDEX; Schema: __SCHEMA__; Owner: -
--

CREATE INDEX plans_status ON __SCHEMA__.plans USING btree (status);


--
-- Name: policies_resource_type; Type: INDEX; Schema: __SCHEMA__; Owner: -
--

CREATE INDEX policies_resource_type ON __SCHEMA__.policies USING btree (resource_type);


--
-- Name: policies_template_resource_type; Type: INDEX; Schema: __SCHEMA__; Owner: -
--

CREATE UNIQUE INDEX policies_template_resource_type ON __SCHEMA__.policies USING btree (template_id, resource_type) WHERE (template_id IS NOT NULL);


--
-- PostgreSQL database dump complete
--


