/** Namespace of the test vocabulary. */
export const gov = 'https://dcg.example.org/vocab/governance/';

/** A small SKOS vocabulary (Turtle) the integration tests load into kg-api and Virtuoso. */
export const vocabulary = `
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix gov: <${gov}> .
gov:data-product skos:prefLabel "Data product"@en , "Prodotto di dati"@it ;
  skos:altLabel "Data asset"@en ;
  skos:definition "A self-contained unit of data."@en ;
  skos:narrower gov:output-port ;
  skos:related gov:domain .
gov:output-port skos:prefLabel "Output port"@en , "Porta di uscita"@it ;
  skos:definition "The interface through which a data product exposes its data."@en ;
  skos:related gov:data-contract .
gov:workload skos:prefLabel "Workload"@en ;
  skos:altLabel "Pipeline"@en , "Job"@en ;
  skos:broader gov:data-product .
gov:data-contract rdfs:label "data contract" ;
  gov:priority "3"^^xsd:integer ;
  gov:mandatory "true"^^xsd:boolean .
`;
