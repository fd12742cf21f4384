"""Machine-readable results for CI: JUnit XML (`junit`) and SARIF 2.1.0 (`sarif`), both written from
the same reporter input (`records.StoredRun`), which `records.stored_run` reads from an exploration's
store. Richer bug evidence plugs in there, once, for every reporter."""
