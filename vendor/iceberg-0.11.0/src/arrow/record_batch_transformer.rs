// Licensed to the Apache Software Foundation (ASF) under one
// or more contributor license agreements.  See the NOTICE file
// distributed with this work for additional information
// regarding copyright ownership.  The ASF licenses this file
// to you under the Apache License, Version 2.0 (the
// "License"); you may not use this file except in compliance
// with the License.  You may obtain a copy of the License at
//
//   http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing,
// software distributed under the License is distributed on an
// "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
// KIND, either express or implied.  See the License for the
// specific language governing permissions and limitations
// under the License.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arrow_arith::boolean::is_not_null;
use arrow_array::{
    Array as ArrowArray, ArrayRef, Int32Array, Int64Array, RecordBatch, RecordBatchOptions,
    RunArray, StructArray,
};
use arrow_cast::cast;
use arrow_schema::{
    DataType, Field, FieldRef, Fields, Schema as ArrowSchema, SchemaRef as ArrowSchemaRef,
    SchemaRef,
};
use arrow_select::zip::zip;
use parquet::arrow::PARQUET_FIELD_ID_META_KEY;

use crate::arrow::value::{create_primitive_array_repeated, create_primitive_array_single_element};
use crate::arrow::{
    datum_to_arrow_type_with_ree, primitive_type_to_arrow_type_with_ree, schema_to_arrow_schema,
    type_to_arrow_type,
};
use crate::metadata_columns::{
    RESERVED_COL_NAME_PARTITION, RESERVED_FIELD_ID_PARTITION, get_metadata_field,
};
use crate::spec::{
    Datum, Literal, PartitionSpec, PrimitiveLiteral, Schema as IcebergSchema, Struct, StructType,
    Transform,
};
use crate::{Error, ErrorKind, Result};

/// Create an Arrow Field with PARQUET_FIELD_ID_META_KEY metadata attached.
fn field_with_id(
    name: impl Into<String>,
    data_type: DataType,
    nullable: bool,
    field_id: i32,
) -> Field {
    Field::new(name, data_type, nullable).with_metadata(HashMap::from([(
        PARQUET_FIELD_ID_META_KEY.to_string(),
        field_id.to_string(),
    )]))
}

/// Build a map of field ID to constant value (as Datum) for identity-partitioned fields.
///
/// Implements Iceberg spec "Column Projection" rule #1: use partition metadata constants
/// only for identity-transformed fields. Non-identity transforms (bucket, truncate, year, etc.)
/// store derived values in partition metadata, so source columns must be read from data files.
///
/// Example: For `bucket(4, id)`, partition metadata has `id_bucket = 2` (bucket number),
/// but the actual `id` values (100, 200, 300) are only in the data file.
///
/// Matches Java's `PartitionUtil.constantsMap()` which filters `if (field.transform().isIdentity())`.
///
/// # References
/// - Spec: https://iceberg.apache.org/spec/#column-projection
/// - Java: core/src/main/java/org/apache/iceberg/util/PartitionUtil.java:constantsMap()
fn constants_map(
    partition_spec: &PartitionSpec,
    partition_data: &Struct,
    schema: &IcebergSchema,
) -> Result<HashMap<i32, Datum>> {
    let mut constants = HashMap::new();

    for (pos, field) in partition_spec.fields().iter().enumerate() {
        // Only identity transforms should use constant values from partition metadata
        if matches!(field.transform, Transform::Identity) {
            // The source column may have been dropped from the schema after the spec was
            // created. It cannot be projected in that case, so no constant is needed.
            let Some(iceberg_field) = schema.field_by_id(field.source_id) else {
                continue;
            };

            // Ensure the field type is primitive
            let prim_type = match &*iceberg_field.field_type {
                crate::spec::Type::Primitive(prim_type) => prim_type,
                _ => {
                    return Err(Error::new(
                        ErrorKind::Unexpected,
                        format!(
                            "Partition field {} has non-primitive type {:?}",
                            field.source_id, iceberg_field.field_type
                        ),
                    ));
                }
            };

            // Get the partition value for this field
            // Handle both None (null) and Some(Literal::Primitive) cases
            match &partition_data[pos] {
                None => {
                    // Skip null partition values - they will be resolved as null per Iceberg spec rule #4.
                    // When a partition value is null, we don't add it to the constants map,
                    // allowing downstream column resolution to handle it correctly.
                    continue;
                }
                Some(Literal::Primitive(value)) => {
                    // Create a Datum from the primitive type and value
                    let datum = Datum::new(prim_type.clone(), value.clone());
                    constants.insert(field.source_id, datum);
                }
                Some(literal) => {
                    return Err(Error::new(
                        ErrorKind::Unexpected,
                        format!(
                            "Partition field {} has non-primitive value: {:?}",
                            field.source_id, literal
                        ),
                    ));
                }
            }
        }
    }

    Ok(constants)
}

/// Indicates how a particular column in a processed RecordBatch should
/// be sourced.
#[derive(Debug)]
pub(crate) enum ColumnSource {
    // signifies that a column should be passed through unmodified
    // from the file's RecordBatch
    PassThrough {
        source_index: usize,
    },

    // signifies that a column from the file's RecordBatch has undergone
    // type promotion so the source column with the given index needs
    // to be promoted to the specified type
    Promote {
        target_type: DataType,
        source_index: usize,
    },

    // Signifies that a new column has been inserted before the column
    // with index `index`. (we choose "before" rather than "after" so
    // that we can use usize; if we insert after, then we need to
    // be able to store -1 here to signify that a new
    // column is to be added at the front of the column list).
    // If multiple columns need to be inserted at a given
    // location, they should all be given the same index, as the index
    // here refers to the original RecordBatch, not the interim state after
    // a preceding operation.
    Add {
        target_type: DataType,
        value: Option<PrimitiveLiteral>,
    },

    // A struct column where each child is a constant primitive value.
    // Used for the _partition metadata column.
    AddStructConstant {
        fields: Fields,
        child_values: Vec<Option<PrimitiveLiteral>>,
    },

    // A metadata column read from the file and coalesced with a per-file
    // fallback: the source column's value where non-null, else `fallback`.
    // Used for `_last_updated_sequence_number` when the file physically carries
    // the per-row column. The result is cast to `target_type` so it matches the
    // (run-end-encoded) type the constant and null paths produce for the column.
    CoalesceLastUpdatedSeq {
        source_index: usize,
        fallback: PrimitiveLiteral,
        target_type: DataType,
    },
    // The iceberg spec refers to other permissible schema evolution actions
    // (see https://iceberg.apache.org/spec/#schema-evolution):
    // renaming fields, deleting fields and reordering fields.
    // Renames only affect the schema of the RecordBatch rather than the
    // columns themselves, so a single updated cached schema can
    // be re-used and no per-column actions are required.
    // Deletion and Reorder can be achieved without needing this
    // post-processing step by using the projection mask.
}

#[derive(Debug)]
enum BatchTransform {
    // Indicates that no changes need to be performed to the RecordBatches
    // coming in from the stream and that they can be passed through
    // unmodified
    PassThrough,

    Modify {
        // Every transformed RecordBatch will have the same schema. We create the
        // target just once and cache it here. Helpfully, Arc<Schema> is needed in
        // the constructor for RecordBatch, so we don't need an expensive copy
        // each time we build a new RecordBatch
        target_schema: Arc<ArrowSchema>,

        // Indicates how each column in the target schema is derived.
        operations: Vec<ColumnSource>,
    },

    // Sometimes only the schema will need modifying, for example when
    // the column names have changed vs the file, but not the column types.
    // we can avoid a heap allocation per RecordBach in this case by retaining
    // the existing column Vec.
    ModifySchema {
        target_schema: Arc<ArrowSchema>,
    },
}

#[derive(Debug)]
enum SchemaComparison {
    Equivalent,
    NameChangesOnly,
    Different,
}

/// Builder for RecordBatchTransformer to improve ergonomics when constructing with optional parameters.
///
/// All per-file constants (scalar metadata like `_file`, identity partition values,
/// and the `_partition` struct) are stored in a single `constant_fields` map keyed by
/// field_id. This unified representation (via [`ColumnConstant`]) means the
/// transformer handles all constant columns through one code path.
#[derive(Debug)]
pub(crate) struct RecordBatchTransformerBuilder {
    snapshot_schema: Arc<IcebergSchema>,
    projected_iceberg_field_ids: Vec<i32>,
    constant_fields: HashMap<i32, ColumnConstant>,
    virtual_fields: HashSet<i32>,
}

/// How a metadata (or identity-partition) column's values are supplied.
///
/// Covers scalar constants (metadata columns like `_file` and `_spec_id`, and
/// identity partition source fields), the struct `_partition` column, an all-null
/// column, and a per-row column coalesced with a per-file fallback.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ColumnConstant {
    /// A scalar constant (e.g., `_file` path, `_spec_id`, identity partition values).
    /// The Datum carries both the Iceberg type and the value.
    Scalar(Datum),
    /// A struct constant (the `_partition` column). Each child is a primitive constant
    /// or null (for partition evolution gaps).
    Struct(StructConstant),
    /// An all-null metadata column, carrying its Arrow type. Used when a metadata
    /// column resolves to null (e.g. `_last_updated_sequence_number` for a file
    /// with a null `first_row_id`). A distinct variant (rather than `Scalar` with a
    /// null value) because `Datum` always represents a non-null value; the type is
    /// computed once so the schema and column-source paths cannot derive it apart.
    Null(DataType),
    /// A metadata column physically present in the file that must be coalesced with
    /// a per-file fallback: read the per-row value, substitute this Datum where the
    /// per-row value is null (e.g. `_last_updated_sequence_number` on a file that
    /// carries the column, falling back to the data sequence number).
    CoalesceLastUpdatedSeq(Datum),
}

/// Pre-computed data for a struct constant column.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StructConstant {
    fields: Fields,
    child_values: Vec<Option<PrimitiveLiteral>>,
}

impl StructConstant {
    /// Create a new StructConstant, validating that fields and child_values have
    /// the same length.
    pub(crate) fn new(fields: Fields, child_values: Vec<Option<PrimitiveLiteral>>) -> Result<Self> {
        if fields.len() != child_values.len() {
            return Err(Error::new(
                ErrorKind::DataInvalid,
                format!(
                    "StructConstant: fields length ({}) != child_values length ({})",
                    fields.len(),
                    child_values.len()
                ),
            ));
        }
        Ok(Self {
            fields,
            child_values,
        })
    }

    pub(crate) fn fields(&self) -> &Fields {
        &self.fields
    }

    pub(crate) fn child_values(&self) -> &[Option<PrimitiveLiteral>] {
        &self.child_values
    }
}

impl RecordBatchTransformerBuilder {
    pub(crate) fn new(
        snapshot_schema: Arc<IcebergSchema>,
        projected_iceberg_field_ids: &[i32],
    ) -> Self {
        Self {
            snapshot_schema,
            projected_iceberg_field_ids: projected_iceberg_field_ids.to_vec(),
            constant_fields: HashMap::new(),
            virtual_fields: HashSet::new(),
        }
    }

    /// Add a scalar constant value for a specific field ID.
    /// This is used for virtual/metadata fields like _file that have constant values per batch.
    pub(crate) fn with_constant(mut self, field_id: i32, datum: Datum) -> Self {
        self.constant_fields
            .insert(field_id, ColumnConstant::Scalar(datum));
        self
    }

    /// Add a coalesced `_last_updated_sequence_number` column for a specific field ID:
    /// the file's per-row value where non-null, falling back to `datum` where null.
    /// Used when the file physically carries the column.
    pub(crate) fn with_coalesced_last_updated_seq_column(
        mut self,
        field_id: i32,
        datum: Datum,
    ) -> Self {
        self.constant_fields
            .insert(field_id, ColumnConstant::CoalesceLastUpdatedSeq(datum));
        self
    }

    /// Add an all-null metadata column for a specific field ID.
    /// Used for metadata columns that resolve to null (e.g.
    /// `_last_updated_sequence_number` when the file has a null `first_row_id`).
    pub(crate) fn with_null_metadata_column(mut self, field_id: i32) -> Result<Self> {
        let iceberg_field = get_metadata_field(field_id)?;
        let prim_type = iceberg_field
            .field_type
            .as_primitive_type()
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Unexpected,
                    format!(
                        "Metadata column {} has non-primitive type {:?}",
                        iceberg_field.name, iceberg_field.field_type
                    ),
                )
            })?;
        // Use the same run-end-encoded type as the non-null constant path, so a
        // column keeps one Arrow type whether a given file resolves it to a value
        // or to null.
        let arrow_type = primitive_type_to_arrow_type_with_ree(prim_type);
        self.constant_fields
            .insert(field_id, ColumnConstant::Null(arrow_type));
        Ok(self)
    }

    /// Set partition spec and data together for identifying identity-transformed partition columns.
    ///
    /// Both partition_spec and partition_data must be provided together since the spec defines
    /// which fields are identity-partitioned, and the data provides their constant values.
    /// This method computes the partition constants and merges them into constant_fields.
    pub(crate) fn with_partition(
        mut self,
        partition_spec: Arc<PartitionSpec>,
        partition_data: Struct,
    ) -> Result<Self> {
        let partition_constants =
            constants_map(&partition_spec, &partition_data, &self.snapshot_schema)?;

        for (field_id, datum) in partition_constants {
            self.constant_fields
                .insert(field_id, ColumnConstant::Scalar(datum));
        }

        Ok(self)
    }

    /// Set virtual fields such as '_pos'. Caller must have registered a corresponding
    /// ArrowReaderOptions::with_virtual_columns call on the reader
    pub(crate) fn with_virtual_field(mut self, field_id: i32) -> Self {
        self.virtual_fields.insert(field_id);
        self
    }

    /// Set a pre-computed _partition column constant directly.
    pub(crate) fn with_partition_constant(mut self, partition_column: StructConstant) -> Self {
        self.constant_fields.insert(
            RESERVED_FIELD_ID_PARTITION,
            ColumnConstant::Struct(partition_column),
        );
        self
    }

    pub(crate) fn build(self) -> RecordBatchTransformer {
        RecordBatchTransformer {
            snapshot_schema: self.snapshot_schema,
            projected_iceberg_field_ids: self.projected_iceberg_field_ids,
            constant_fields: self.constant_fields,
            virtual_fields: self.virtual_fields,
            batch_transform: None,
        }
    }
}

/// Transforms RecordBatches from Parquet files to match the Iceberg table schema.
///
/// Handles schema evolution, column reordering, type promotion, and implements the Iceberg spec's
/// "Column Projection" rules for resolving field IDs "not present" in data files:
/// 1. Return the value from partition metadata if an Identity Transform exists
/// 2. Use schema.name-mapping.default metadata to map field id to columns without field id (applied in ArrowReader)
/// 3. Return the default value if it has a defined initial-default
/// 4. Return null in all other cases
///
/// # Field ID Resolution
///
/// Field ID resolution happens in ArrowReader before data is read (matching Java's ReadConf):
/// - If file has embedded field IDs: trust them (ParquetSchemaUtil.hasIds() = true)
/// - If file lacks IDs and name_mapping exists: apply name mapping (ParquetSchemaUtil.applyNameMapping())
/// - If file lacks IDs and no name_mapping: use position-based fallback (ParquetSchemaUtil.addFallbackIds())
///
/// By the time RecordBatchTransformer processes data, all field IDs are trustworthy.
/// This transformer only handles remaining projection rules (#1, #3, #4) for fields still "not present".
///
/// # Partition Spec and Data
///
/// **Bucket partitioning**: Distinguish identity transforms (use partition metadata constants)
/// from non-identity transforms like bucket (read from data file) to enable runtime filtering on
/// bucket-partitioned columns. For example, `bucket(4, id)` stores only the bucket number in
/// partition metadata, so actual `id` values must be read from the data file.
///
/// # References
/// - Spec: https://iceberg.apache.org/spec/#column-projection
/// - Java: parquet/src/main/java/org/apache/iceberg/parquet/ReadConf.java (field ID resolution)
/// - Java: core/src/main/java/org/apache/iceberg/util/PartitionUtil.java (partition constants)
#[derive(Debug)]
pub(crate) struct RecordBatchTransformer {
    snapshot_schema: Arc<IcebergSchema>,
    projected_iceberg_field_ids: Vec<i32>,
    // Unified map of all per-file constant columns (metadata, identity partition, _partition struct).
    constant_fields: HashMap<i32, ColumnConstant>,

    // Field IDs whose data is delivered by the source batch as an arrow-rs virtual column
    // (e.g. _pos via RowNumber). These fields bypass the snapshot-schema lookup and the
    // Iceberg projection rules (name mapping / initial-default / null)
    virtual_fields: HashSet<i32>,

    // BatchTransform gets lazily constructed based on the schema of
    // the first RecordBatch we receive from the file
    batch_transform: Option<BatchTransform>,
}

impl RecordBatchTransformer {
    pub(crate) fn process_record_batch(
        &mut self,
        record_batch: RecordBatch,
    ) -> Result<RecordBatch> {
        Ok(match &self.batch_transform {
            Some(BatchTransform::PassThrough) => record_batch,
            Some(BatchTransform::Modify {
                target_schema,
                operations,
            }) => {
                let options = RecordBatchOptions::default()
                    .with_match_field_names(false)
                    .with_row_count(Some(record_batch.num_rows()));
                RecordBatch::try_new_with_options(
                    Arc::clone(target_schema),
                    self.transform_columns(record_batch.columns(), operations)?,
                    &options,
                )?
            }
            Some(BatchTransform::ModifySchema { target_schema }) => {
                let options = RecordBatchOptions::default()
                    .with_match_field_names(false)
                    .with_row_count(Some(record_batch.num_rows()));
                RecordBatch::try_new_with_options(
                    Arc::clone(target_schema),
                    record_batch.columns().to_vec(),
                    &options,
                )?
            }
            None => {
                self.batch_transform = Some(Self::generate_batch_transform(
                    record_batch.schema_ref(),
                    self.snapshot_schema.as_ref(),
                    &self.projected_iceberg_field_ids,
                    &self.constant_fields,
                    &self.virtual_fields,
                )?);

                self.process_record_batch(record_batch)?
            }
        })
    }

    // Compare the schema of the incoming RecordBatches to the schema of
    // the Iceberg snapshot to determine what, if any, transformation
    // needs to be applied. If the schemas match, we return BatchTransform::PassThrough
    // to indicate that no changes need to be made. Otherwise, we return a
    // BatchTransform::Modify containing the target RecordBatch schema and
    // the list of `ColumnSource`s that indicate how to source each column in
    // the resulting RecordBatches.
    fn generate_batch_transform(
        source_schema: &ArrowSchemaRef,
        snapshot_schema: &IcebergSchema,
        projected_iceberg_field_ids: &[i32],
        constant_fields: &HashMap<i32, ColumnConstant>,
        virtual_fields: &HashSet<i32>,
    ) -> Result<BatchTransform> {
        let mapped_unprojected_arrow_schema = Arc::new(schema_to_arrow_schema(snapshot_schema)?);
        let field_id_to_mapped_schema_map =
            Self::build_field_id_to_arrow_schema_map(&mapped_unprojected_arrow_schema)?;

        // Create a new arrow schema by selecting fields from mapped_unprojected,
        // in the order of the field ids in projected_iceberg_field_ids
        let fields: Result<Vec<_>> = projected_iceberg_field_ids
            .iter()
            .map(|field_id| {
                match constant_fields.get(field_id) {
                    Some(ColumnConstant::Struct(pc))
                        if *field_id == RESERVED_FIELD_ID_PARTITION =>
                    {
                        let struct_type = DataType::Struct(pc.fields().clone());
                        let nullable = pc.fields().is_empty();
                        let arrow_field = field_with_id(
                            RESERVED_COL_NAME_PARTITION,
                            struct_type,
                            nullable,
                            *field_id,
                        );
                        return Ok(Arc::new(arrow_field));
                    }
                    Some(ColumnConstant::Struct(_)) => {
                        return Err(Error::new(
                            ErrorKind::Unexpected,
                            format!(
                                "Struct column constants are only supported for the `_partition` \
                                 metadata column (field id {RESERVED_FIELD_ID_PARTITION}), but \
                                 one was set for field id {field_id}"
                            ),
                        ));
                    }
                    Some(ColumnConstant::Scalar(datum)) => {
                        if let Ok(iceberg_field) = get_metadata_field(*field_id) {
                            let arrow_type = datum_to_arrow_type_with_ree(datum);
                            let arrow_field = field_with_id(
                                &iceberg_field.name,
                                arrow_type,
                                !iceberg_field.required,
                                iceberg_field.id,
                            );
                            return Ok(Arc::new(arrow_field));
                        }
                        // Identity partition constant -- fall through to use the
                        // mapped schema field (read from file if present).
                    }
                    Some(ColumnConstant::Null(arrow_type)) => {
                        let iceberg_field = get_metadata_field(*field_id)?;
                        // Always nullable: this arm produces an all-null column regardless
                        // of the field's declared optionality.
                        let arrow_field = field_with_id(
                            &iceberg_field.name,
                            arrow_type.clone(),
                            true,
                            iceberg_field.id,
                        );
                        return Ok(Arc::new(arrow_field));
                    }
                    Some(ColumnConstant::CoalesceLastUpdatedSeq(datum)) => {
                        // Same run-end-encoded type as the constant/null paths, so the
                        // column has one Arrow type whether a file coalesces, uses the
                        // constant, or is nulled.
                        let iceberg_field = get_metadata_field(*field_id)?;
                        let arrow_field = field_with_id(
                            &iceberg_field.name,
                            datum_to_arrow_type_with_ree(datum),
                            true,
                            iceberg_field.id,
                        );
                        return Ok(Arc::new(arrow_field));
                    }
                    None => {}
                }

                if virtual_fields.contains(field_id) {
                    let virtual_field = get_metadata_field(*field_id)?;
                    let arrow_type = type_to_arrow_type(&virtual_field.field_type)?;
                    let arrow_field = field_with_id(
                        &virtual_field.name,
                        arrow_type,
                        !virtual_field.required,
                        virtual_field.id,
                    );
                    return Ok(Arc::new(arrow_field));
                }

                // Regular fields and identity-partitioned constant fields both exist in the
                // table schema, so use the mapped Arrow field as-is.
                Ok(field_id_to_mapped_schema_map
                    .get(field_id)
                    .ok_or(Error::new(ErrorKind::Unexpected, "field not found"))?
                    .0
                    .clone())
            })
            .collect();

        let target_schema = Arc::new(ArrowSchema::new(fields?));

        match Self::compare_schemas(source_schema, &target_schema) {
            SchemaComparison::Equivalent => Ok(BatchTransform::PassThrough),
            SchemaComparison::NameChangesOnly => Ok(BatchTransform::ModifySchema { target_schema }),
            SchemaComparison::Different => Ok(BatchTransform::Modify {
                operations: Self::generate_transform_operations(
                    source_schema,
                    snapshot_schema,
                    projected_iceberg_field_ids,
                    field_id_to_mapped_schema_map,
                    constant_fields,
                    virtual_fields,
                )?,
                target_schema,
            }),
        }
    }

    /// Compares the source and target schemas to decide how much work the
    /// transform must do. The checks are applied in this order:
    ///  1. If the schemas have different numbers of fields, they are
    ///     `Different`: we must rebuild both the schema AND the columns.
    ///  2. If every field matches positionally in name, data type, and
    ///     nullability, they are `Equivalent`: the original RecordBatch can be
    ///     passed through unmodified.
    ///  3. If they contain the same set of fields but in a different order
    ///     (detected via set-equality, since field names are unique), they are
    ///     `Different`: the columns must be rebuilt in the target order.
    ///  4. Otherwise, the fields align positionally: if any differs in data
    ///     type or nullability the schemas are `Different` (rebuild schema AND
    ///     columns); if they differ only in names, it is `NameChangesOnly` and
    ///     we can relabel the schema BUT keep the original column data.
    fn compare_schemas(
        source_schema: &ArrowSchemaRef,
        target_schema: &ArrowSchemaRef,
    ) -> SchemaComparison {
        if source_schema.fields().len() != target_schema.fields().len() {
            return SchemaComparison::Different;
        }

        let field_eq = |a: &FieldRef, b: &FieldRef| {
            a.name() == b.name()
                && a.data_type() == b.data_type()
                && a.is_nullable() == b.is_nullable()
        };

        let positional = || source_schema.fields().iter().zip(target_schema.fields());

        // Field-by-field identical: nothing to do.
        if positional().all(|(s, t)| field_eq(s, t)) {
            return SchemaComparison::Equivalent;
        }

        // Same set of fields but reordered: rebuild in target (selection) order.
        // Lengths are equal and field names are unique, so this is set-equality.
        let reordered = target_schema
            .fields()
            .iter()
            .all(|t| source_schema.fields().iter().any(|s| field_eq(s, t)));
        if reordered {
            return SchemaComparison::Different;
        }

        // Not a reordering: any type/nullability difference needs a full
        // rebuild; otherwise only names differ and we can just relabel.
        if positional()
            .any(|(s, t)| s.data_type() != t.data_type() || s.is_nullable() != t.is_nullable())
        {
            SchemaComparison::Different
        } else {
            SchemaComparison::NameChangesOnly
        }
    }

    fn generate_transform_operations(
        source_schema: &ArrowSchemaRef,
        snapshot_schema: &IcebergSchema,
        projected_iceberg_field_ids: &[i32],
        field_id_to_mapped_schema_map: HashMap<i32, (FieldRef, usize)>,
        constant_fields: &HashMap<i32, ColumnConstant>,
        virtual_fields: &HashSet<i32>,
    ) -> Result<Vec<ColumnSource>> {
        let field_id_to_source_schema_map =
            Self::build_field_id_to_arrow_schema_map(source_schema)?;

        projected_iceberg_field_ids
            .iter()
            .map(|field_id| {
                match constant_fields.get(field_id) {
                    Some(ColumnConstant::Struct(pc))
                        if *field_id == RESERVED_FIELD_ID_PARTITION =>
                    {
                        return Ok(ColumnSource::AddStructConstant {
                            fields: pc.fields().clone(),
                            child_values: pc.child_values().to_vec(),
                        });
                    }
                    Some(ColumnConstant::Struct(_)) => {
                        return Err(Error::new(
                            ErrorKind::Unexpected,
                            format!(
                                "Struct column constants are only supported for the `_partition` \
                                 metadata column (field id {RESERVED_FIELD_ID_PARTITION}), but \
                                 one was set for field id {field_id}"
                            ),
                        ));
                    }
                    Some(ColumnConstant::Scalar(datum)) => {
                        // Metadata/virtual fields (like _file, _spec_id) never exist in the
                        // data file, so they always use their pre-computed constant value.
                        //
                        // For identity-partitioned fields, the Iceberg spec's "Column
                        // Projection" rules only apply to "field ids which are not present in
                        // a data file". When the column IS present in the Parquet file, it
                        // must be read from the file; the partition metadata constant is only
                        // a fallback for when the column is absent (e.g. add_files).
                        let is_metadata = get_metadata_field(*field_id).is_ok();
                        let present_in_file =
                            field_id_to_source_schema_map.contains_key(field_id);

                        if is_metadata || !present_in_file {
                            let arrow_type = if is_metadata {
                                datum_to_arrow_type_with_ree(datum)
                            } else {
                                field_id_to_mapped_schema_map
                                    .get(field_id)
                                    .ok_or(Error::new(
                                        ErrorKind::Unexpected,
                                        "could not find field in schema",
                                    ))?
                                    .0
                                    .data_type()
                                    .clone()
                            };

                            return Ok(ColumnSource::Add {
                                value: Some(datum.literal().clone()),
                                target_type: arrow_type,
                            });
                        }
                        // Identity partition field present in the file -- fall through
                        // to read from the file instead of using the constant.
                    }
                    Some(ColumnConstant::Null(arrow_type)) => {
                        return Ok(ColumnSource::Add {
                            value: None,
                            target_type: arrow_type.clone(),
                        });
                    }
                    Some(ColumnConstant::CoalesceLastUpdatedSeq(datum)) => {
                        // Registered only for `_last_updated_sequence_number`, and only after
                        // the pipeline detects the embedded field id, so the source column is
                        // always present in the file.
                        let (_, source_index) =
                            field_id_to_source_schema_map.get(field_id).ok_or_else(|| {
                                Error::new(
                                    ErrorKind::Unexpected,
                                    format!(
                                        "coalesce registered for field id {field_id} but the \
                                         column is absent from the file batch"
                                    ),
                                )
                            })?;
                        return Ok(ColumnSource::CoalesceLastUpdatedSeq {
                            source_index: *source_index,
                            fallback: datum.literal().clone(),
                            target_type: datum_to_arrow_type_with_ree(datum),
                        });
                    }
                    None => {}
                }

                if virtual_fields.contains(field_id) {
                    let (_, source_index) = field_id_to_source_schema_map
                        .get(field_id)
                        .ok_or_else(|| Error::new(
                            ErrorKind::Unexpected,
                            format!("virtual column for field id {field_id} is not present in source batch — ensure ArrowReaderOptions::with_virtual_columns was applied"),
                        ))?;
                    return Ok(ColumnSource::PassThrough { source_index: *source_index });
                }

                let (target_field, _) =
                    field_id_to_mapped_schema_map
                        .get(field_id)
                        .ok_or(Error::new(
                            ErrorKind::Unexpected,
                            format!("could not find field {field_id} in schema"),
                        ))?;
                let target_type = target_field.data_type();

                let iceberg_field = snapshot_schema.field_by_id(*field_id).ok_or(Error::new(
                    ErrorKind::Unexpected,
                    "Field not found in snapshot schema",
                ))?;

                // Iceberg spec's "Column Projection" rules (https://iceberg.apache.org/spec/#column-projection).
                // For fields "not present" in data files:
                // 1. Use partition metadata (identity transforms only)
                // 2. Use name mapping
                // 3. Use initial_default
                // 4. Return null
                //
                // Why check partition constants before Parquet field IDs (Java: BaseParquetReaders.java:299):
                // In add_files scenarios, partition columns may exist in BOTH Parquet AND partition metadata.
                // Partition metadata is authoritative - it defines which partition this file belongs to.

                // Field ID resolution now happens in ArrowReader via:
                // 1. Embedded field IDs (ParquetSchemaUtil.hasIds() = true) - trust them
                // 2. Name mapping (ParquetSchemaUtil.applyNameMapping()) - applied upfront
                // 3. Position-based fallback (ParquetSchemaUtil.addFallbackIds()) - applied upfront
                //
                // At this point, all field IDs in the source schema are trustworthy.
                // No conflict detection needed - schema resolution happened in reader.rs.
                let field_by_id = field_id_to_source_schema_map.get(field_id).map(
                    |(source_field, source_index)| {
                        if source_field.data_type().equals_datatype(target_type) {
                            ColumnSource::PassThrough {
                                source_index: *source_index,
                            }
                        } else {
                            ColumnSource::Promote {
                                target_type: target_type.clone(),
                                source_index: *source_index,
                            }
                        }
                    },
                );

                // Apply spec's fallback steps for "not present" fields.
                // Rule #1 (constants) is handled at the beginning of this function
                let column_source = if let Some(source) = field_by_id {
                    source
                } else {
                    // Rules #2, #3 and #4:
                    // Rule #2 (name mapping) was already applied in reader.rs if needed.
                    // If field_id is still not found, the column doesn't exist in the Parquet file.
                    // Fall through to rule #3 (initial_default) or rule #4 (null).
                    //
                    // Per the spec's "Default values", null is only a valid default for an
                    // optional field. A required field that is absent with no initial-default
                    // therefore has no valid value and must error, rather than producing a null
                    // column that violates the field's required constraint. This matches
                    // Iceberg-Java's Parquet readers (BaseParquetReaders / SparkParquetReaders),
                    // which raise "Missing required field: <name>".
                    if iceberg_field.initial_default.is_none() && iceberg_field.required {
                        return Err(Error::new(
                            ErrorKind::DataInvalid,
                            format!("Missing required field: {}", iceberg_field.name),
                        ));
                    }

                    let default_value = iceberg_field.initial_default.as_ref().and_then(|lit| {
                        if let Literal::Primitive(prim) = lit {
                            Some(prim.clone())
                        } else {
                            None
                        }
                    });

                    ColumnSource::Add {
                        value: default_value,
                        target_type: target_type.clone(),
                    }
                };

                Ok(column_source)
            })
            .collect()
    }

    fn build_field_id_to_arrow_schema_map(
        source_schema: &SchemaRef,
    ) -> Result<HashMap<i32, (FieldRef, usize)>> {
        let mut field_id_to_source_schema = HashMap::new();
        for (source_field_idx, source_field) in source_schema.fields.iter().enumerate() {
            // Check if field has a field ID in metadata
            if let Some(field_id_str) = source_field.metadata().get(PARQUET_FIELD_ID_META_KEY) {
                let this_field_id = field_id_str.parse().map_err(|e| {
                    Error::new(
                        ErrorKind::DataInvalid,
                        format!("field id not parseable as an i32: {e}"),
                    )
                })?;

                field_id_to_source_schema
                    .insert(this_field_id, (source_field.clone(), source_field_idx));
            }
            // If field doesn't have a field ID, skip it - name mapping will handle it
        }

        Ok(field_id_to_source_schema)
    }

    fn transform_columns(
        &self,
        columns: &[Arc<dyn ArrowArray>],
        operations: &[ColumnSource],
    ) -> Result<Vec<Arc<dyn ArrowArray>>> {
        if columns.is_empty() {
            return Ok(columns.to_vec());
        }
        let num_rows = columns[0].len();

        operations
            .iter()
            .map(|op| {
                Ok(match op {
                    ColumnSource::PassThrough { source_index } => columns[*source_index].clone(),

                    ColumnSource::Promote {
                        target_type,
                        source_index,
                    } => cast(&*columns[*source_index], target_type)?,

                    ColumnSource::Add { target_type, value } => {
                        Self::create_column(target_type, value, num_rows)?
                    }

                    ColumnSource::AddStructConstant {
                        fields,
                        child_values,
                    } => Self::create_struct_column(fields, child_values, num_rows)?,

                    ColumnSource::CoalesceLastUpdatedSeq {
                        source_index,
                        fallback,
                        target_type,
                    } => Self::create_coalesce_column(
                        &columns[*source_index],
                        fallback,
                        target_type,
                    )?,
                })
            })
            .collect()
    }

    /// Builds a coalesced column: the source column's per-row value where non-null,
    /// else the scalar `fallback`, cast to `target_type` (the run-end-encoded type
    /// the column's other paths produce).
    fn create_coalesce_column(
        source: &ArrayRef,
        fallback: &PrimitiveLiteral,
        target_type: &DataType,
    ) -> Result<ArrayRef> {
        if source.data_type() != &DataType::Int64 {
            return Err(Error::new(
                ErrorKind::DataInvalid,
                format!("coalesce source must be Int64, got {}", source.data_type()),
            ));
        }
        let PrimitiveLiteral::Long(seq) = fallback else {
            return Err(Error::new(
                ErrorKind::Unexpected,
                format!("coalesce fallback must be a long, got {fallback:?}"),
            ));
        };
        let scalar = Int64Array::new_scalar(*seq);
        let mask = is_not_null(source)?;
        let coalesced = zip(&mask, source, &scalar)?;
        // Cast to the run-end-encoded target type for column-type uniformity across the
        // constant/null/coalesce paths (not for compression -- a per-row-varying column
        // gains nothing from REE).
        Ok(cast(&coalesced, target_type)?)
    }

    fn create_column(
        target_type: &DataType,
        prim_lit: &Option<PrimitiveLiteral>,
        num_rows: usize,
    ) -> Result<ArrayRef> {
        // Check if this is a RunEndEncoded type (for constant fields)
        if let DataType::RunEndEncoded(_, values_field) = target_type {
            // Helper to create a Run-End Encoded array
            let create_ree_array = |values_array: ArrayRef| -> Result<ArrayRef> {
                let run_ends = if num_rows == 0 {
                    Int32Array::from(Vec::<i32>::new())
                } else {
                    Int32Array::from(vec![num_rows as i32])
                };
                Ok(Arc::new(
                    RunArray::try_new(&run_ends, &values_array).map_err(|e| {
                        Error::new(
                            ErrorKind::Unexpected,
                            "Failed to create RunArray for constant value",
                        )
                        .with_source(e)
                    })?,
                ))
            };

            // Create the values array using the helper function
            let values_array =
                create_primitive_array_single_element(values_field.data_type(), prim_lit)?;

            // Wrap in Run-End Encoding
            create_ree_array(values_array)
        } else {
            // Non-REE type (simple arrays for non-constant fields)
            create_primitive_array_repeated(target_type, prim_lit, num_rows)
        }
    }

    fn create_struct_column(
        fields: &Fields,
        child_values: &[Option<PrimitiveLiteral>],
        num_rows: usize,
    ) -> Result<ArrayRef> {
        if fields.is_empty() {
            let nulls = arrow_buffer::NullBuffer::new_null(num_rows);
            return Ok(Arc::new(StructArray::new_empty_fields(
                num_rows,
                Some(nulls),
            )));
        }

        let child_arrays: Vec<ArrayRef> = fields
            .iter()
            .zip(child_values.iter())
            .map(|(field, value)| {
                create_primitive_array_repeated(field.data_type(), value, num_rows)
            })
            .collect::<Result<_>>()?;

        Ok(Arc::new(StructArray::try_new(
            fields.clone(),
            child_arrays,
            None,
        )?))
    }
}

/// Builds a [`StructConstant`] from the unified partition type and a file's
/// partition spec/data.
///
/// If `unified_partition_type` has no fields (unpartitioned table), returns an empty constant
/// that renders as a null struct column.
///
/// For each field in the unified partition type:
/// - If it corresponds to a field in this file's partition spec, use the value from partition_data
/// - Otherwise (partition evolution), use null
pub(crate) fn build_partition_constant(
    unified_partition_type: &StructType,
    partition_spec: &PartitionSpec,
    partition_data: &Struct,
) -> Result<StructConstant> {
    // Unpartitioned table: empty struct rendered as null
    if unified_partition_type.fields().is_empty() {
        return StructConstant::new(Fields::empty(), vec![]);
    }

    use crate::arrow::type_to_arrow_type;

    let spec_fields = partition_spec.fields();

    let mut arrow_fields = Vec::with_capacity(unified_partition_type.fields().len());
    let mut child_values = Vec::with_capacity(unified_partition_type.fields().len());

    for unified_field in unified_partition_type.fields() {
        let arrow_type = type_to_arrow_type(&unified_field.field_type)?;
        // Don't attach PARQUET_FIELD_ID_META_KEY metadata to child fields --
        // Spark's output schema for _partition doesn't include it, and Arrow's
        // Field::eq checks metadata, causing the schema adapter to insert an
        // unnecessary cast operation per batch.
        // Always nullable: partition evolution means any field may be absent
        // for files written under a different spec.
        let arrow_field = Field::new(&unified_field.name, arrow_type, true);
        arrow_fields.push(Arc::new(arrow_field));

        // Find matching field in this file's partition spec by field_id
        let value = spec_fields
            .iter()
            .position(|f| f.field_id == unified_field.id)
            .and_then(|pos| {
                // Get the value from partition_data at this position
                match &partition_data[pos] {
                    Some(Literal::Primitive(prim)) => Some(prim.clone()),
                    _ => None,
                }
            });

        child_values.push(value);
    }

    StructConstant::new(Fields::from(arrow_fields), child_values)
}

#[cfg(test)]
mod test {
    use std::collections::HashMap;
    use std::sync::Arc;

    use arrow_array::{
        Array, Date32Array, Float32Array, Float64Array, Int32Array, Int64Array, RecordBatch,
        StringArray,
    };
    use arrow_cast::cast;
    use arrow_schema::{DataType, Field, Schema as ArrowSchema};

    use super::field_with_id;
    use crate::arrow::build_partition_constant;
    use crate::arrow::record_batch_transformer::{
        RecordBatchTransformer, RecordBatchTransformerBuilder,
    };
    use crate::spec::{Literal, NestedField, PrimitiveType, Schema, Struct, Type};

    /// Helper to extract string values from either StringArray or RunEndEncoded<StringArray>
    /// Returns empty string for null values
    fn get_string_value(array: &dyn Array, index: usize) -> String {
        if let Some(string_array) = array.as_any().downcast_ref::<StringArray>() {
            if string_array.is_null(index) {
                String::new()
            } else {
                string_array.value(index).to_string()
            }
        } else if let Some(run_array) = array
            .as_any()
            .downcast_ref::<arrow_array::RunArray<arrow_array::types::Int32Type>>()
        {
            let values = run_array.values();
            let string_values = values
                .as_any()
                .downcast_ref::<StringArray>()
                .expect("REE values should be StringArray");
            // For REE, all rows have the same value (index 0 in the values array)
            if string_values.is_null(0) {
                String::new()
            } else {
                string_values.value(0).to_string()
            }
        } else {
            panic!("Expected StringArray or RunEndEncoded<StringArray>");
        }
    }

    /// Helper to extract int values from either Int32Array or RunEndEncoded<Int32Array>
    fn get_int_value(array: &dyn Array, index: usize) -> i32 {
        if let Some(int_array) = array.as_any().downcast_ref::<Int32Array>() {
            int_array.value(index)
        } else if let Some(run_array) = array
            .as_any()
            .downcast_ref::<arrow_array::RunArray<arrow_array::types::Int32Type>>()
        {
            let values = run_array.values();
            let int_values = values
                .as_any()
                .downcast_ref::<Int32Array>()
                .expect("REE values should be Int32Array");
            int_values.value(0)
        } else {
            panic!("Expected Int32Array or RunEndEncoded<Int32Array>");
        }
    }

    #[test]
    fn build_field_id_to_source_schema_map_works() {
        let arrow_schema = arrow_schema_already_same_as_target();

        let result =
            RecordBatchTransformer::build_field_id_to_arrow_schema_map(&arrow_schema).unwrap();

        let expected = HashMap::from_iter([
            (10, (arrow_schema.fields()[0].clone(), 0)),
            (11, (arrow_schema.fields()[1].clone(), 1)),
            (12, (arrow_schema.fields()[2].clone(), 2)),
            (14, (arrow_schema.fields()[3].clone(), 3)),
            (15, (arrow_schema.fields()[4].clone(), 4)),
        ]);

        assert!(result.eq(&expected));
    }

    #[test]
    fn processor_returns_properly_shaped_record_batch_when_no_schema_migration_required() {
        let snapshot_schema = Arc::new(iceberg_table_schema());
        let projected_iceberg_field_ids = [13, 14];

        let mut inst =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_iceberg_field_ids)
                .build();

        let result = inst
            .process_record_batch(source_record_batch_no_migration_required())
            .unwrap();

        let expected = source_record_batch_no_migration_required();

        assert_eq!(result, expected);
    }

    #[test]
    fn processor_returns_properly_shaped_record_batch_when_schema_migration_required() {
        let snapshot_schema = Arc::new(iceberg_table_schema());
        let projected_iceberg_field_ids = [10, 11, 12, 14, 15]; // a, b, c, e, f

        let mut inst =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_iceberg_field_ids)
                .build();

        let result = inst.process_record_batch(source_record_batch()).unwrap();

        let expected = expected_record_batch_migration_required();

        assert_eq!(result, expected);
    }

    #[test]
    fn schema_evolution_adds_date_column_with_nulls() {
        // Reproduces TestSelect.readAndWriteWithBranchAfterSchemaChange from iceberg-spark.
        // When reading old snapshots after adding a DATE column, the transformer must
        // populate the new column with NULL values since old files lack this field.
        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(1)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::optional(2, "name", Type::Primitive(PrimitiveType::String)).into(),
                    NestedField::optional(3, "date_col", Type::Primitive(PrimitiveType::Date))
                        .into(),
                ])
                .build()
                .unwrap(),
        );
        let projected_iceberg_field_ids = [1, 2, 3];

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_iceberg_field_ids)
                .build();

        let file_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id", DataType::Int32, false, 1),
            field_with_id("name", DataType::Utf8, true, 2),
        ]));

        let file_batch = RecordBatch::try_new(file_schema, vec![
            Arc::new(Int32Array::from(vec![1, 2, 3])),
            Arc::new(StringArray::from(vec![
                Some("Alice"),
                Some("Bob"),
                Some("Charlie"),
            ])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(file_batch).unwrap();

        assert_eq!(result.num_columns(), 3);
        assert_eq!(result.num_rows(), 3);

        let id_column = result
            .column(0)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert_eq!(id_column.values(), &[1, 2, 3]);

        let name_column = result
            .column(1)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(name_column.value(0), "Alice");
        assert_eq!(name_column.value(1), "Bob");
        assert_eq!(name_column.value(2), "Charlie");

        let date_column = result
            .column(2)
            .as_any()
            .downcast_ref::<Date32Array>()
            .unwrap();
        assert!(date_column.is_null(0));
        assert!(date_column.is_null(1));
        assert!(date_column.is_null(2));
    }

    #[test]
    fn schema_evolution_required_field_absent_without_default_errors() {
        // Per the spec's "Default values", null is only a valid default for an optional field, so
        // a required field that is absent from the data file with no initial-default has no valid
        // value and must error. Matches Iceberg-Java's Parquet readers, which raise
        // "Missing required field: <name>".
        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(1)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::required(2, "missing_str", Type::Primitive(PrimitiveType::String))
                        .into(),
                ])
                .build()
                .unwrap(),
        );
        let projected_iceberg_field_ids = [1, 2];

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_iceberg_field_ids)
                .build();

        let file_schema = Arc::new(ArrowSchema::new(vec![field_with_id(
            "id",
            DataType::Int32,
            false,
            1,
        )]));
        let file_batch =
            RecordBatch::try_new(file_schema, vec![Arc::new(Int32Array::from(vec![1, 2, 3]))])
                .unwrap();

        let err = transformer.process_record_batch(file_batch).unwrap_err();
        assert!(
            err.to_string()
                .contains("Missing required field: missing_str"),
            "unexpected error: {err}"
        );
    }

    #[test]
    fn schema_evolution_adds_struct_column_with_nulls() {
        // Test that when a struct column is added after data files are written,
        // the transformer can materialize the missing struct column with null values.
        // This reproduces the scenario from Iceberg 1.10.0 TestSparkReaderDeletes tests
        // where binaryData and structData columns were added to the schema.
        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(1)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::required(2, "data", Type::Primitive(PrimitiveType::String)).into(),
                    NestedField::optional(
                        3,
                        "struct_col",
                        Type::Struct(crate::spec::StructType::new(vec![
                            NestedField::optional(
                                100,
                                "inner_field",
                                Type::Primitive(PrimitiveType::String),
                            )
                            .into(),
                        ])),
                    )
                    .into(),
                ])
                .build()
                .unwrap(),
        );
        let projected_iceberg_field_ids = [1, 2, 3];

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_iceberg_field_ids)
                .build();

        let file_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id", DataType::Int32, false, 1),
            field_with_id("data", DataType::Utf8, false, 2),
        ]));

        let file_batch = RecordBatch::try_new(file_schema, vec![
            Arc::new(Int32Array::from(vec![1, 2, 3])),
            Arc::new(StringArray::from(vec!["a", "b", "c"])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(file_batch).unwrap();

        assert_eq!(result.num_columns(), 3);
        assert_eq!(result.num_rows(), 3);

        let id_column = result
            .column(0)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert_eq!(id_column.values(), &[1, 2, 3]);

        let data_column = result
            .column(1)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(data_column.value(0), "a");
        assert_eq!(data_column.value(1), "b");
        assert_eq!(data_column.value(2), "c");

        let struct_column = result
            .column(2)
            .as_any()
            .downcast_ref::<arrow_array::StructArray>()
            .unwrap();
        assert!(struct_column.is_null(0));
        assert!(struct_column.is_null(1));
        assert!(struct_column.is_null(2));
    }

    pub fn source_record_batch() -> RecordBatch {
        RecordBatch::try_new(
            arrow_schema_promotion_addition_and_renaming_required(),
            vec![
                Arc::new(Int32Array::from(vec![Some(1001), Some(1002), Some(1003)])), // b
                Arc::new(Float32Array::from(vec![
                    Some(12.125),
                    Some(23.375),
                    Some(34.875),
                ])), // c
                Arc::new(Int32Array::from(vec![Some(2001), Some(2002), Some(2003)])), // d
                Arc::new(StringArray::from(vec![
                    Some("Apache"),
                    Some("Iceberg"),
                    Some("Rocks"),
                ])), // e
            ],
        )
        .unwrap()
    }

    pub fn source_record_batch_no_migration_required() -> RecordBatch {
        RecordBatch::try_new(
            arrow_schema_no_promotion_addition_or_renaming_required(),
            vec![
                Arc::new(Int32Array::from(vec![Some(2001), Some(2002), Some(2003)])), // d
                Arc::new(StringArray::from(vec![
                    Some("Apache"),
                    Some("Iceberg"),
                    Some("Rocks"),
                ])), // e
            ],
        )
        .unwrap()
    }

    pub fn expected_record_batch_migration_required() -> RecordBatch {
        RecordBatch::try_new(arrow_schema_already_same_as_target(), vec![
            Arc::new(StringArray::from(Vec::<Option<String>>::from([
                None, None, None,
            ]))), // a
            Arc::new(Int64Array::from(vec![Some(1001), Some(1002), Some(1003)])), // b
            Arc::new(Float64Array::from(vec![
                Some(12.125),
                Some(23.375),
                Some(34.875),
            ])), // c
            Arc::new(StringArray::from(vec![
                Some("Apache"),
                Some("Iceberg"),
                Some("Rocks"),
            ])), // e (d skipped by projection)
            Arc::new(StringArray::from(vec![
                Some("(╯°□°）╯"),
                Some("(╯°□°）╯"),
                Some("(╯°□°）╯"),
            ])), // f
        ])
        .unwrap()
    }

    pub fn iceberg_table_schema() -> Schema {
        Schema::builder()
            .with_schema_id(2)
            .with_fields(vec![
                NestedField::optional(10, "a", Type::Primitive(PrimitiveType::String)).into(),
                NestedField::required(11, "b", Type::Primitive(PrimitiveType::Long)).into(),
                NestedField::required(12, "c", Type::Primitive(PrimitiveType::Double)).into(),
                NestedField::required(13, "d", Type::Primitive(PrimitiveType::Int)).into(),
                NestedField::optional(14, "e", Type::Primitive(PrimitiveType::String)).into(),
                NestedField::required(15, "f", Type::Primitive(PrimitiveType::String))
                    .with_initial_default(Literal::string("(╯°□°）╯"))
                    .into(),
            ])
            .build()
            .unwrap()
    }

    fn arrow_schema_already_same_as_target() -> Arc<ArrowSchema> {
        Arc::new(ArrowSchema::new(vec![
            field_with_id("a", DataType::Utf8, true, 10),
            field_with_id("b", DataType::Int64, false, 11),
            field_with_id("c", DataType::Float64, false, 12),
            field_with_id("e", DataType::Utf8, true, 14),
            field_with_id("f", DataType::Utf8, false, 15),
        ]))
    }

    fn arrow_schema_promotion_addition_and_renaming_required() -> Arc<ArrowSchema> {
        Arc::new(ArrowSchema::new(vec![
            field_with_id("b", DataType::Int32, false, 11),
            field_with_id("c", DataType::Float32, false, 12),
            field_with_id("d", DataType::Int32, false, 13),
            field_with_id("e_old", DataType::Utf8, true, 14),
        ]))
    }

    fn arrow_schema_no_promotion_addition_or_renaming_required() -> Arc<ArrowSchema> {
        Arc::new(ArrowSchema::new(vec![
            field_with_id("d", DataType::Int32, false, 13),
            field_with_id("e", DataType::Utf8, true, 14),
        ]))
    }

    /// Test for add_files with Parquet files that have NO field IDs (Hive tables).
    ///
    /// This reproduces the scenario from Iceberg spec where:
    /// - Hive-style partitioned Parquet files are imported via add_files procedure
    /// - Parquet files originally DO NOT have field IDs (typical for Hive tables)
    /// - ArrowReader applies name mapping to assign correct Iceberg field IDs
    /// - Iceberg schema assigns field IDs: id (1), name (2), dept (3), subdept (4)
    /// - Partition columns (id, dept) have initial_default values
    ///
    /// Per the Iceberg spec (https://iceberg.apache.org/spec/#column-projection),
    /// this scenario requires `schema.name-mapping.default` from table metadata
    /// to correctly map Parquet columns by name to Iceberg field IDs.
    /// This mapping is now applied in ArrowReader before data is processed.
    ///
    /// Expected behavior:
    /// 1. id=1 (from initial_default) - spec rule #3
    /// 2. name="John Doe" (from Parquet with field_id=2 assigned by reader) - found by field ID
    /// 3. dept="hr" (from initial_default) - spec rule #3
    /// 4. subdept="communications" (from Parquet with field_id=4 assigned by reader) - found by field ID
    #[test]
    fn add_files_with_name_mapping_applied_in_reader() {
        // Iceberg schema after add_files: id (partition), name, dept (partition), subdept
        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::optional(1, "id", Type::Primitive(PrimitiveType::Int))
                        .with_initial_default(Literal::int(1))
                        .into(),
                    NestedField::optional(2, "name", Type::Primitive(PrimitiveType::String)).into(),
                    NestedField::optional(3, "dept", Type::Primitive(PrimitiveType::String))
                        .with_initial_default(Literal::string("hr"))
                        .into(),
                    NestedField::optional(4, "subdept", Type::Primitive(PrimitiveType::String))
                        .into(),
                ])
                .build()
                .unwrap(),
        );

        // Simulate ArrowReader having applied name mapping:
        // Original Parquet: name, subdept (NO field IDs)
        // After reader.rs applies name mapping: name (field_id=2), subdept (field_id=4)
        //
        // Note: Partition columns (id, dept) are NOT in the Parquet file - they're in directory paths
        use std::collections::HashMap;
        let parquet_schema = Arc::new(ArrowSchema::new(vec![
            Field::new("name", DataType::Utf8, true).with_metadata(HashMap::from([(
                "PARQUET:field_id".to_string(),
                "2".to_string(),
            )])),
            Field::new("subdept", DataType::Utf8, true).with_metadata(HashMap::from([(
                "PARQUET:field_id".to_string(),
                "4".to_string(),
            )])),
        ]));

        let projected_field_ids = [1, 2, 3, 4]; // id, name, dept, subdept

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids).build();

        // Create a Parquet RecordBatch with data for: name="John Doe", subdept="communications"
        let parquet_batch = RecordBatch::try_new(parquet_schema, vec![
            Arc::new(StringArray::from(vec!["John Doe"])),
            Arc::new(StringArray::from(vec!["communications"])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        // Verify the transformed RecordBatch has:
        // - id=1 (from initial_default, not from Parquet)
        // - name="John Doe" (from Parquet with correct field_id=2)
        // - dept="hr" (from initial_default, not from Parquet)
        // - subdept="communications" (from Parquet with correct field_id=4)
        assert_eq!(result.num_columns(), 4);
        assert_eq!(result.num_rows(), 1);

        let id_column = result
            .column(0)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert_eq!(id_column.value(0), 1);

        let name_column = result
            .column(1)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(name_column.value(0), "John Doe");

        let dept_column = result
            .column(2)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(dept_column.value(0), "hr");

        let subdept_column = result
            .column(3)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(subdept_column.value(0), "communications");
    }

    /// Test for bucket partitioning where source columns must be read from data files.
    ///
    /// This test verifies correct implementation of the Iceberg spec's "Column Projection" rules:
    /// > "Return the value from partition metadata if an **Identity Transform** exists for the field"
    ///
    /// # Why this test is critical
    ///
    /// The key insight is that partition metadata stores TRANSFORMED values, not source values:
    /// - For `bucket(4, id)`, partition metadata has `id_bucket = 2` (the bucket number)
    /// - The actual `id` column values (100, 200, 300) are ONLY in the data file
    ///
    /// If iceberg-rust incorrectly treated bucket-partitioned fields as constants, it would:
    /// 1. Replace all `id` values with the constant `2` from partition metadata
    /// 2. Break runtime filtering (e.g., `WHERE id = 100` would match no rows)
    /// 3. Return incorrect query results
    ///
    /// # What this test verifies
    ///
    /// - Bucket-partitioned fields (e.g., `bucket(4, id)`) are read from the data file
    /// - The source column `id` contains actual values (100, 200, 300), not constants
    /// - Java's `PartitionUtil.constantsMap()` behavior is correctly replicated:
    ///   ```java
    ///   if (field.transform().isIdentity()) {  // FALSE for bucket transforms
    ///       idToConstant.put(field.sourceId(), converted);
    ///   }
    ///   ```
    ///
    /// # Real-world impact
    ///
    /// This reproduces the failure scenario from Iceberg Java's TestRuntimeFiltering:
    /// - Tables partitioned by `bucket(N, col)` are common for load balancing
    /// - Queries filter on the source column: `SELECT * FROM tbl WHERE col = value`
    /// - Runtime filtering pushes predicates down to Iceberg file scans
    /// - Without this fix, the filter would match against constant partition values instead of data
    ///
    /// # References
    /// - Iceberg spec: format/spec.md "Column Projection" + "Partition Transforms"
    /// - Java impl: core/src/main/java/org/apache/iceberg/util/PartitionUtil.java
    /// - Java test: spark/src/test/java/.../TestRuntimeFiltering.java
    #[test]
    fn bucket_partitioning_reads_source_column_from_file() {
        use crate::spec::{Struct, Transform};

        // Table schema: id (data column), name (data column), id_bucket (partition column)
        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::optional(2, "name", Type::Primitive(PrimitiveType::String)).into(),
                ])
                .build()
                .unwrap(),
        );

        // Partition spec: bucket(4, id) - the id field is bucketed
        let partition_spec = Arc::new(
            crate::spec::PartitionSpec::builder(snapshot_schema.clone())
                .with_spec_id(0)
                .add_partition_field("id", "id_bucket", Transform::Bucket(4))
                .unwrap()
                .build()
                .unwrap(),
        );

        // Partition data: bucket value is 2
        // In Iceberg, partition data is a Struct where each field corresponds to a partition field
        let partition_data = Struct::from_iter(vec![Some(Literal::int(2))]);

        // Parquet file contains both id and name columns
        let parquet_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id", DataType::Int32, false, 1),
            field_with_id("name", DataType::Utf8, true, 2),
        ]));

        let projected_field_ids = [1, 2]; // id, name

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
                .with_partition(partition_spec, partition_data)
                .expect("Failed to add partition constants")
                .build();

        // Create a Parquet RecordBatch with actual data
        // The id column MUST be read from here, not treated as a constant
        let parquet_batch = RecordBatch::try_new(parquet_schema, vec![
            Arc::new(Int32Array::from(vec![100, 200, 300])),
            Arc::new(StringArray::from(vec!["Alice", "Bob", "Charlie"])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        // Verify the transformed RecordBatch correctly reads id from the file
        // (NOT as a constant from partition metadata)
        assert_eq!(result.num_columns(), 2);
        assert_eq!(result.num_rows(), 3);

        let id_column = result
            .column(0)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        // These values MUST come from the Parquet file, not be replaced by constants
        assert_eq!(id_column.value(0), 100);
        assert_eq!(id_column.value(1), 200);
        assert_eq!(id_column.value(2), 300);

        let name_column = result
            .column(1)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(name_column.value(0), "Alice");
        assert_eq!(name_column.value(1), "Bob");
        assert_eq!(name_column.value(2), "Charlie");
    }

    /// Test that identity-transformed partition fields ARE treated as constants.
    ///
    /// This is the complement to `bucket_partitioning_reads_source_column_from_file`,
    /// verifying that constants_map() correctly identifies identity-transformed
    /// partition fields per the Iceberg spec.
    ///
    /// # Spec requirement (format/spec.md "Column Projection")
    ///
    /// > "Return the value from partition metadata if an Identity Transform exists for the field
    /// >  and the partition value is present in the `partition` struct on `data_file` object
    /// >  in the manifest. This allows for metadata only migrations of Hive tables."
    ///
    /// # Why identity transforms use constants
    ///
    /// Unlike bucket/truncate/year/etc., identity transforms don't modify the value:
    /// - `identity(dept)` stores the actual `dept` value in partition metadata
    /// - Partition metadata has `dept = "engineering"` (the real value, not a hash/bucket)
    /// - This value can be used directly without reading the data file
    ///
    /// # Performance benefit
    ///
    /// For Hive migrations where partition columns aren't in data files:
    /// - Partition metadata provides the column values
    /// - No need to read from data files (metadata-only query optimization)
    /// - Common pattern: `dept=engineering/subdept=backend/file.parquet`
    ///   - `dept` and `subdept` are in directory structure, not in `file.parquet`
    ///   - Iceberg populates these from partition metadata as constants
    ///
    /// # What this test verifies
    ///
    /// - Identity-partitioned fields use constants from partition metadata
    /// - The `dept` column is populated with `"engineering"` (not read from file)
    /// - Java's `PartitionUtil.constantsMap()` behavior is matched:
    ///   ```java
    ///   if (field.transform().isIdentity()) {  // TRUE for identity
    ///       idToConstant.put(field.sourceId(), converted);
    ///   }
    ///   ```
    ///
    /// # References
    /// - Iceberg spec: format/spec.md "Column Projection"
    /// - Java impl: core/src/main/java/org/apache/iceberg/util/PartitionUtil.java
    #[test]
    fn identity_partition_uses_constant_from_metadata() {
        use crate::spec::{Struct, Transform};

        // Table schema: id (data column), dept (partition column), name (data column)
        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::required(2, "dept", Type::Primitive(PrimitiveType::String)).into(),
                    NestedField::optional(3, "name", Type::Primitive(PrimitiveType::String)).into(),
                ])
                .build()
                .unwrap(),
        );

        // Partition spec: identity(dept) - the dept field uses identity transform
        let partition_spec = Arc::new(
            crate::spec::PartitionSpec::builder(snapshot_schema.clone())
                .with_spec_id(0)
                .add_partition_field("dept", "dept", Transform::Identity)
                .unwrap()
                .build()
                .unwrap(),
        );

        // Partition data: dept="engineering"
        let partition_data = Struct::from_iter(vec![Some(Literal::string("engineering"))]);

        // Parquet file contains only id and name (dept is in partition path)
        let parquet_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id", DataType::Int32, false, 1),
            field_with_id("name", DataType::Utf8, true, 3),
        ]));

        let projected_field_ids = [1, 2, 3]; // id, dept, name

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
                .with_partition(partition_spec, partition_data)
                .expect("Failed to add partition constants")
                .build();

        let parquet_batch = RecordBatch::try_new(parquet_schema, vec![
            Arc::new(Int32Array::from(vec![100, 200])),
            Arc::new(StringArray::from(vec!["Alice", "Bob"])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        // Verify the dept column is populated with the constant from partition metadata
        assert_eq!(result.num_columns(), 3);
        assert_eq!(result.num_rows(), 2);

        // Use helpers to handle both simple and REE arrays
        assert_eq!(get_int_value(result.column(0).as_ref(), 0), 100);
        assert_eq!(get_int_value(result.column(0).as_ref(), 1), 200);

        // dept column comes from partition metadata (constant) - will be REE
        assert_eq!(
            get_string_value(result.column(1).as_ref(), 0),
            "engineering"
        );
        assert_eq!(
            get_string_value(result.column(1).as_ref(), 1),
            "engineering"
        );

        // name column comes from file
        assert_eq!(get_string_value(result.column(2).as_ref(), 0), "Alice");
        assert_eq!(get_string_value(result.column(2).as_ref(), 1), "Bob");
    }

    /// Test that a dropped identity partition source column is skipped rather than erroring.
    ///
    /// A historical spec may use `identity(col)` where `col` was later dropped from the
    /// schema. `constants_map()` must skip that field instead of failing, so the file can
    /// still be read (the dropped column is not projected).
    #[test]
    fn dropped_identity_partition_source_column_is_skipped() {
        use crate::spec::{Struct, Transform};

        // Original schema used to build the spec: has id, dept, name.
        let original_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::required(2, "dept", Type::Primitive(PrimitiveType::String)).into(),
                    NestedField::optional(3, "name", Type::Primitive(PrimitiveType::String)).into(),
                ])
                .build()
                .unwrap(),
        );

        // Spec: identity(dept). Built against the original schema where dept still exists.
        let partition_spec = Arc::new(
            crate::spec::PartitionSpec::builder(original_schema.clone())
                .with_spec_id(0)
                .add_partition_field("dept", "dept", Transform::Identity)
                .unwrap()
                .build()
                .unwrap(),
        );

        // Evolved snapshot schema: dept (field id 2) has been dropped.
        let evolved_schema = Arc::new(
            Schema::builder()
                .with_schema_id(1)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::optional(3, "name", Type::Primitive(PrimitiveType::String)).into(),
                ])
                .build()
                .unwrap(),
        );

        let partition_data = Struct::from_iter(vec![Some(Literal::string("engineering"))]);

        let parquet_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id", DataType::Int32, false, 1),
            field_with_id("name", DataType::Utf8, true, 3),
        ]));

        let projected_field_ids = [1, 3]; // id, name -- dept is gone

        // The dropped source column must not cause an error here.
        let mut transformer =
            RecordBatchTransformerBuilder::new(evolved_schema, &projected_field_ids)
                .with_partition(partition_spec, partition_data)
                .expect("dropped partition source column should be skipped, not error")
                .build();

        let parquet_batch = RecordBatch::try_new(parquet_schema, vec![
            Arc::new(Int32Array::from(vec![100, 200])),
            Arc::new(StringArray::from(vec!["Alice", "Bob"])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        // Only the live columns are projected; no constant is added for the dropped dept.
        assert_eq!(result.num_columns(), 2);
        assert_eq!(result.num_rows(), 2);
        assert_eq!(get_int_value(result.column(0).as_ref(), 0), 100);
        assert_eq!(get_int_value(result.column(0).as_ref(), 1), 200);
        assert_eq!(get_string_value(result.column(1).as_ref(), 0), "Alice");
        assert_eq!(get_string_value(result.column(1).as_ref(), 1), "Bob");
    }

    /// Test bucket partitioning with renamed source column.
    ///
    /// This verifies correct behavior for TestRuntimeFiltering.testRenamedSourceColumnTable() in Iceberg Java.
    /// When a source column is renamed after partitioning is established, field-ID-based mapping
    /// must still correctly identify the column in Parquet files.
    ///
    /// # Scenario
    ///
    /// 1. Table created with `bucket(4, id)` partitioning
    /// 2. Data written to Parquet files (field_id=1, name="id")
    /// 3. Column renamed: `ALTER TABLE ... RENAME COLUMN id TO row_id`
    /// 4. Iceberg schema now has: field_id=1, name="row_id"
    /// 5. Parquet files still have: field_id=1, name="id"
    ///
    /// # Expected Behavior Per Iceberg Spec
    ///
    /// Per the Iceberg spec "Column Projection" section and Java's PartitionUtil.constantsMap():
    /// - Bucket transforms are NON-identity, so partition metadata stores bucket numbers (0-3), not source values
    /// - Source columns for non-identity transforms MUST be read from data files
    /// - Field-ID-based mapping should find the column by field_id=1 (ignoring name mismatch)
    /// - Runtime filtering on `row_id` should work correctly
    ///
    /// # What This Tests
    ///
    /// This test ensures that when FileScanTask provides partition_spec and partition_data:
    /// - constants_map() correctly identifies that bucket(4, row_id) is NOT an identity transform
    /// - The source column (field_id=1) is NOT added to constants_map
    /// - Field-ID-based mapping reads actual values from the Parquet file
    /// - Values [100, 200, 300] are read, not replaced with bucket constant 2
    ///
    /// # References
    /// - Java test: spark/src/test/java/.../TestRuntimeFiltering.java::testRenamedSourceColumnTable
    /// - Java impl: core/src/main/java/org/apache/iceberg/util/PartitionUtil.java::constantsMap()
    /// - Iceberg spec: format/spec.md "Column Projection" section
    #[test]
    fn test_bucket_partitioning_with_renamed_source_column() {
        use crate::spec::{Struct, Transform};

        // Iceberg schema after rename: row_id (was id), name
        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "row_id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::optional(2, "name", Type::Primitive(PrimitiveType::String)).into(),
                ])
                .build()
                .unwrap(),
        );

        // Partition spec: bucket(4, row_id) - but source_id still points to field_id=1
        let partition_spec = Arc::new(
            crate::spec::PartitionSpec::builder(snapshot_schema.clone())
                .with_spec_id(0)
                .add_partition_field("row_id", "row_id_bucket", Transform::Bucket(4))
                .unwrap()
                .build()
                .unwrap(),
        );

        // Partition data: bucket value is 2
        let partition_data = Struct::from_iter(vec![Some(Literal::int(2))]);

        // Parquet file has OLD column name "id" but SAME field_id=1
        // Field-ID-based mapping should find this despite name mismatch
        let parquet_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id", DataType::Int32, false, 1),
            field_with_id("name", DataType::Utf8, true, 2),
        ]));

        let projected_field_ids = [1, 2]; // row_id (field_id=1), name (field_id=2)

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
                .with_partition(partition_spec, partition_data)
                .expect("Failed to add partition constants")
                .build();

        // Create a Parquet RecordBatch with actual data
        // Despite column rename, data should be read via field_id=1
        let parquet_batch = RecordBatch::try_new(parquet_schema, vec![
            Arc::new(Int32Array::from(vec![100, 200, 300])),
            Arc::new(StringArray::from(vec!["Alice", "Bob", "Charlie"])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        // Verify the transformed RecordBatch correctly reads data despite name mismatch
        assert_eq!(result.num_columns(), 2);
        assert_eq!(result.num_rows(), 3);

        let row_id_column = result
            .column(0)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        // These values MUST come from the Parquet file via field_id=1,
        // not be replaced by the bucket constant (2)
        assert_eq!(row_id_column.value(0), 100);
        assert_eq!(row_id_column.value(1), 200);
        assert_eq!(row_id_column.value(2), 300);

        let name_column = result
            .column(1)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(name_column.value(0), "Alice");
        assert_eq!(name_column.value(1), "Bob");
        assert_eq!(name_column.value(2), "Charlie");
    }

    /// Comprehensive integration test that verifies all 4 Iceberg spec rules work correctly.
    ///
    /// Per the Iceberg spec (https://iceberg.apache.org/spec/#column-projection),
    /// "Values for field ids which are not present in a data file must be resolved
    /// according the following rules:"
    ///
    /// This test creates a scenario where each rule is exercised:
    /// - Rule #1: dept (identity-partitioned) -> constant from partition metadata
    /// - Rule #2: data (via name mapping) -> read from Parquet file by name
    /// - Rule #3: category (initial_default) -> use default value
    /// - Rule #4: notes (no default) -> return null
    ///
    /// # References
    /// - Iceberg spec: format/spec.md "Column Projection" section
    #[test]
    fn test_all_four_spec_rules() {
        use crate::spec::Transform;

        // Iceberg schema with columns designed to exercise each spec rule
        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    // Field in Parquet by field ID (normal case)
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    // Rule #1: Identity-partitioned field - should use partition metadata
                    NestedField::required(2, "dept", Type::Primitive(PrimitiveType::String)).into(),
                    // Rule #2: Field resolved by name mapping (ArrowReader already applied)
                    NestedField::required(3, "data", Type::Primitive(PrimitiveType::String)).into(),
                    // Rule #3: Field with initial_default
                    NestedField::optional(4, "category", Type::Primitive(PrimitiveType::String))
                        .with_initial_default(Literal::string("default_category"))
                        .into(),
                    // Rule #4: Field with no default - should be null
                    NestedField::optional(5, "notes", Type::Primitive(PrimitiveType::String))
                        .into(),
                ])
                .build()
                .unwrap(),
        );

        // Partition spec: identity transform on dept
        let partition_spec = Arc::new(
            crate::spec::PartitionSpec::builder(snapshot_schema.clone())
                .with_spec_id(0)
                .add_partition_field("dept", "dept", Transform::Identity)
                .unwrap()
                .build()
                .unwrap(),
        );

        // Partition data: dept="engineering"
        let partition_data = Struct::from_iter(vec![Some(Literal::string("engineering"))]);

        // Parquet schema: simulates post-ArrowReader state where name mapping already applied
        // Has id (field_id=1) and data (field_id=3, assigned by ArrowReader via name mapping)
        // Missing: dept (in partition), category (has default), notes (no default)
        let parquet_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id", DataType::Int32, false, 1),
            field_with_id("data", DataType::Utf8, false, 3),
        ]));

        let projected_field_ids = [1, 2, 3, 4, 5]; // id, dept, data, category, notes

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
                .with_partition(partition_spec, partition_data)
                .expect("Failed to add partition constants")
                .build();

        let parquet_batch = RecordBatch::try_new(parquet_schema, vec![
            Arc::new(Int32Array::from(vec![100, 200])),
            Arc::new(StringArray::from(vec!["value1", "value2"])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        assert_eq!(result.num_columns(), 5);
        assert_eq!(result.num_rows(), 2);

        // Verify each column demonstrates the correct spec rule:

        // Normal case: id from Parquet by field ID
        // Use helpers to handle both simple and REE arrays
        assert_eq!(get_int_value(result.column(0).as_ref(), 0), 100);
        assert_eq!(get_int_value(result.column(0).as_ref(), 1), 200);

        // Rule #1: dept from partition metadata (identity transform) - will be REE
        assert_eq!(
            get_string_value(result.column(1).as_ref(), 0),
            "engineering"
        );
        assert_eq!(
            get_string_value(result.column(1).as_ref(), 1),
            "engineering"
        );

        // Rule #2: data from Parquet via name mapping - will be regular array
        assert_eq!(get_string_value(result.column(2).as_ref(), 0), "value1");
        assert_eq!(get_string_value(result.column(2).as_ref(), 1), "value2");

        // Rule #3: category from initial_default - will be REE
        assert_eq!(
            get_string_value(result.column(3).as_ref(), 0),
            "default_category"
        );
        assert_eq!(
            get_string_value(result.column(3).as_ref(), 1),
            "default_category"
        );

        // Rule #4: notes is null (no default, not in Parquet, not in partition) - will be REE with null
        // For null REE arrays, we still use the helper which handles extraction
        assert_eq!(get_string_value(result.column(4).as_ref(), 0), "");
        assert_eq!(get_string_value(result.column(4).as_ref(), 1), "");
    }

    /// Test handling of null values in identity-partitioned columns.
    ///
    /// Reproduces TestPartitionValues.testNullPartitionValue() from iceberg-java, which
    /// writes records where the partition column has null values. Before the fix in #1922,
    /// this would error with "Partition field X has null value for identity transform".
    #[test]
    fn null_identity_partition_value() {
        use crate::spec::{Struct, Transform};

        let schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::optional(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::optional(2, "data", Type::Primitive(PrimitiveType::String)).into(),
                ])
                .build()
                .unwrap(),
        );

        let partition_spec = Arc::new(
            crate::spec::PartitionSpec::builder(schema.clone())
                .with_spec_id(0)
                .add_partition_field("data", "data", Transform::Identity)
                .unwrap()
                .build()
                .unwrap(),
        );

        // Partition has null value for the data column
        let partition_data = Struct::from_iter(vec![None]);

        let file_schema = Arc::new(ArrowSchema::new(vec![field_with_id(
            "id",
            DataType::Int32,
            true,
            1,
        )]));

        let projected_field_ids = [1, 2];

        let mut transformer = RecordBatchTransformerBuilder::new(schema, &projected_field_ids)
            .with_partition(partition_spec, partition_data)
            .expect("Should handle null partition values")
            .build();

        let file_batch =
            RecordBatch::try_new(file_schema, vec![Arc::new(Int32Array::from(vec![1, 2, 3]))])
                .unwrap();

        let result = transformer.process_record_batch(file_batch).unwrap();

        assert_eq!(result.num_columns(), 2);
        assert_eq!(result.num_rows(), 3);

        let id_col = result
            .column(0)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert_eq!(id_col.values(), &[1, 2, 3]);

        // Partition column with null value should produce nulls
        let data_col = result.column(1);
        assert!(data_col.is_null(0));
        assert!(data_col.is_null(1));
        assert!(data_col.is_null(2));
    }

    #[test]
    fn pos_column() {
        use crate::metadata_columns::RESERVED_FIELD_ID_POS;

        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::optional(2, "name", Type::Primitive(PrimitiveType::String)).into(),
                ])
                .build()
                .unwrap(),
        );

        // Simulate what arrow-rs's virtual-column reader produces: file columns
        // followed by the _pos Int64 column carrying absolute file row indices.
        let parquet_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id", DataType::Int32, false, 1),
            field_with_id("name", DataType::Utf8, true, 2),
            field_with_id("_pos", DataType::Int64, false, RESERVED_FIELD_ID_POS),
        ]));

        let projected_field_ids = [1, 2, RESERVED_FIELD_ID_POS];

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
                .with_virtual_field(RESERVED_FIELD_ID_POS)
                .build();

        let parquet_batch = RecordBatch::try_new(parquet_schema, vec![
            Arc::new(Int32Array::from(vec![100, 200, 300])),
            Arc::new(StringArray::from(vec!["a", "b", "c"])),
            Arc::new(Int64Array::from(vec![0, 1, 2])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        assert_eq!(result.num_columns(), 3);
        assert_eq!(result.num_rows(), 3);

        // id column from file
        let id_col = result
            .column(0)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert_eq!(id_col.values(), &[100, 200, 300]);

        // name column from file
        let name_col = result
            .column(1)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(name_col.value(0), "a");

        // _pos column
        let pos_col = result
            .column(2)
            .as_any()
            .downcast_ref::<Int64Array>()
            .unwrap();

        assert_eq!(pos_col.len(), 3);
        assert_eq!(pos_col.values(), &[0, 1, 2]);
    }

    #[test]
    fn last_updated_sequence_number_constant() {
        use crate::metadata_columns::RESERVED_FIELD_ID_LAST_UPDATED_SEQUENCE_NUMBER;
        use crate::spec::Datum;

        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                ])
                .build()
                .unwrap(),
        );

        // The column is not physically present in the file; it is materialized as
        // a per-file constant equal to the data sequence number.
        let parquet_schema = Arc::new(ArrowSchema::new(vec![field_with_id(
            "id",
            DataType::Int32,
            false,
            1,
        )]));

        let projected_field_ids = [1, RESERVED_FIELD_ID_LAST_UPDATED_SEQUENCE_NUMBER];

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
                .with_constant(
                    RESERVED_FIELD_ID_LAST_UPDATED_SEQUENCE_NUMBER,
                    Datum::long(7),
                )
                .build();

        let parquet_batch =
            RecordBatch::try_new(parquet_schema, vec![Arc::new(Int32Array::from(vec![
                10, 20, 30,
            ]))])
            .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        assert_eq!(result.num_columns(), 2);
        assert_eq!(result.num_rows(), 3);

        // Every row's logical value is 7 (the data sequence number), regardless of
        // the physical (run-end) encoding.
        assert_last_updated_seq_column(&result, &[Some(7), Some(7), Some(7)]);
    }

    #[test]
    fn last_updated_sequence_number_null_column() {
        use crate::metadata_columns::RESERVED_FIELD_ID_LAST_UPDATED_SEQUENCE_NUMBER;

        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                ])
                .build()
                .unwrap(),
        );

        let parquet_schema = Arc::new(ArrowSchema::new(vec![field_with_id(
            "id",
            DataType::Int32,
            false,
            1,
        )]));

        let projected_field_ids = [1, RESERVED_FIELD_ID_LAST_UPDATED_SEQUENCE_NUMBER];

        // The null-gate path (a file with a null first_row_id): the whole column is null.
        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
                .with_null_metadata_column(RESERVED_FIELD_ID_LAST_UPDATED_SEQUENCE_NUMBER)
                .unwrap()
                .build();

        let parquet_batch =
            RecordBatch::try_new(parquet_schema, vec![Arc::new(Int32Array::from(vec![
                10, 20, 30,
            ]))])
            .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        // Every row's logical value is null.
        assert_last_updated_seq_column(&result, &[None, None, None]);
    }

    /// Builds a transformer + a file batch for the coalesce case: `id` plus a physical
    /// `_last_updated_sequence_number` column carrying `seq_values`.
    fn coalesce_transformer_and_batch(
        seq_values: Vec<Option<i64>>,
        id_values: Vec<i32>,
        fallback: i64,
    ) -> (RecordBatchTransformer, RecordBatch) {
        use crate::metadata_columns::{
            RESERVED_COL_NAME_LAST_UPDATED_SEQUENCE_NUMBER,
            RESERVED_FIELD_ID_LAST_UPDATED_SEQUENCE_NUMBER,
        };
        use crate::spec::Datum;

        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                ])
                .build()
                .unwrap(),
        );
        let parquet_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id", DataType::Int32, false, 1),
            field_with_id(
                RESERVED_COL_NAME_LAST_UPDATED_SEQUENCE_NUMBER,
                DataType::Int64,
                true,
                RESERVED_FIELD_ID_LAST_UPDATED_SEQUENCE_NUMBER,
            ),
        ]));
        let projected_field_ids = [1, RESERVED_FIELD_ID_LAST_UPDATED_SEQUENCE_NUMBER];
        let transformer = RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
            .with_coalesced_last_updated_seq_column(
                RESERVED_FIELD_ID_LAST_UPDATED_SEQUENCE_NUMBER,
                Datum::long(fallback),
            )
            .build();
        let batch = RecordBatch::try_new(parquet_schema, vec![
            Arc::new(Int32Array::from(id_values)),
            Arc::new(Int64Array::from(seq_values)),
        ])
        .unwrap();
        (transformer, batch)
    }

    /// Reads the `_last_updated_sequence_number` column by name (encoding-agnostic: casts
    /// through the run-end-encoding to logical Int64) and asserts its per-row values.
    fn assert_last_updated_seq_column(result: &RecordBatch, expected: &[Option<i64>]) {
        use crate::metadata_columns::RESERVED_COL_NAME_LAST_UPDATED_SEQUENCE_NUMBER;

        let col = result
            .column_by_name(RESERVED_COL_NAME_LAST_UPDATED_SEQUENCE_NUMBER)
            .expect("_last_updated_sequence_number column should be present");
        let logical = cast(col, &DataType::Int64).unwrap();
        let values = logical.as_any().downcast_ref::<Int64Array>().unwrap();
        let actual: Vec<Option<i64>> = (0..values.len())
            .map(|i| (!values.is_null(i)).then(|| values.value(i)))
            .collect();
        assert_eq!(&actual, expected);
    }

    #[test]
    fn last_updated_sequence_number_coalesce_column() {
        let (mut transformer, batch) =
            coalesce_transformer_and_batch(vec![Some(5), None, Some(8)], vec![10, 20, 30], 9);
        let result = transformer.process_record_batch(batch).unwrap();

        // Per-row value where non-null; the fallback (9) where null.
        assert_last_updated_seq_column(&result, &[Some(5), Some(9), Some(8)]);
    }

    #[test]
    fn last_updated_sequence_number_coalesce_all_null() {
        // Every row falls back. This is the only input that distinguishes the `is_not_null`
        // mask from `is_null` -- a mixed input passes under either polarity.
        let (mut transformer, batch) =
            coalesce_transformer_and_batch(vec![None, None, None], vec![10, 20, 30], 9);
        let result = transformer.process_record_batch(batch).unwrap();

        assert_last_updated_seq_column(&result, &[Some(9), Some(9), Some(9)]);
    }

    #[test]
    fn last_updated_sequence_number_coalesce_all_non_null() {
        // Nothing falls back: every per-row value passes through, and the run-end-encoding
        // cast still yields a valid array.
        let (mut transformer, batch) =
            coalesce_transformer_and_batch(vec![Some(5), Some(6), Some(7)], vec![10, 20, 30], 9);
        let result = transformer.process_record_batch(batch).unwrap();

        assert_last_updated_seq_column(&result, &[Some(5), Some(6), Some(7)]);
    }

    #[test]
    fn last_updated_sequence_number_coalesce_empty_batch() {
        // A 0-row batch (reachable when a predicate or positional deletes clear a row
        // group) must still produce a well-formed, empty column of the shared type.
        let (mut transformer, batch) = coalesce_transformer_and_batch(vec![], vec![], 9);
        let result = transformer.process_record_batch(batch).unwrap();

        assert_eq!(result.num_rows(), 0);
        assert_last_updated_seq_column(&result, &[]);
    }

    /// field 1 and RESERVED_FIELD_ID_POS are of identical type
    /// swapping their projection order should not lead to [`SchemaComparison::NameChangesOnly`]
    #[test]
    fn reorder_pos_column_with_columns_of_identical_type() {
        use crate::metadata_columns::RESERVED_FIELD_ID_POS;

        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "id_long", Type::Primitive(PrimitiveType::Long))
                        .into(),
                    NestedField::optional(2, "name", Type::Primitive(PrimitiveType::String)).into(),
                ])
                .build()
                .unwrap(),
        );

        let parquet_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id_long", DataType::Int64, false, 1),
            field_with_id("name", DataType::Utf8, true, 2),
            field_with_id("_pos", DataType::Int64, false, RESERVED_FIELD_ID_POS),
        ]));

        let projected_field_ids = [RESERVED_FIELD_ID_POS, 2, 1];

        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
                .with_virtual_field(RESERVED_FIELD_ID_POS)
                .build();

        let parquet_batch = RecordBatch::try_new(parquet_schema, vec![
            Arc::new(Int64Array::from(vec![100, 200, 300])),
            Arc::new(StringArray::from(vec!["a", "b", "c"])),
            Arc::new(Int64Array::from(vec![0, 1, 2])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        assert_eq!(result.num_columns(), 3);
        assert_eq!(result.num_rows(), 3);

        let pos_col = result
            .column(0)
            .as_any()
            .downcast_ref::<Int64Array>()
            .unwrap();
        assert_eq!(pos_col.values(), &[0, 1, 2]);

        let name_col = result
            .column(1)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(name_col.value(0), "a");
        assert_eq!(name_col.value(1), "b");
        assert_eq!(name_col.value(2), "c");

        let id_col = result
            .column(2)
            .as_any()
            .downcast_ref::<Int64Array>()
            .unwrap();

        assert_eq!(id_col.len(), 3);
        assert_eq!(id_col.values(), &[100, 200, 300]);
    }

    #[test]
    fn partition_column_struct_constant() {
        use arrow_array::StructArray;

        use crate::metadata_columns::RESERVED_FIELD_ID_PARTITION;
        use crate::spec::Transform;

        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "id", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::optional(2, "name", Type::Primitive(PrimitiveType::String)).into(),
                ])
                .build()
                .unwrap(),
        );

        // Partition spec: identity(id)
        let partition_spec = Arc::new(
            crate::spec::PartitionSpec::builder(snapshot_schema.clone())
                .with_spec_id(0)
                .add_partition_field("id", "id", Transform::Identity)
                .unwrap()
                .build()
                .unwrap(),
        );

        // Unified partition type: just one field (same as the spec's type)
        let unified_partition_type = partition_spec.partition_type(&snapshot_schema).unwrap();

        // Partition data: id=42
        let partition_data = Struct::from_iter(vec![Some(Literal::int(42))]);

        // Parquet file has both columns
        let parquet_schema = Arc::new(ArrowSchema::new(vec![
            field_with_id("id", DataType::Int32, false, 1),
            field_with_id("name", DataType::Utf8, true, 2),
        ]));

        // Project id, name, and _partition
        let projected_field_ids = [1, 2, RESERVED_FIELD_ID_PARTITION];

        let partition_column =
            build_partition_constant(&unified_partition_type, &partition_spec, &partition_data)
                .unwrap();
        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
                .with_partition_constant(partition_column)
                .build();

        let parquet_batch = RecordBatch::try_new(parquet_schema, vec![
            Arc::new(Int32Array::from(vec![100, 200, 300])),
            Arc::new(StringArray::from(vec!["a", "b", "c"])),
        ])
        .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        assert_eq!(result.num_columns(), 3);
        assert_eq!(result.num_rows(), 3);

        // id column from file
        let id_col = result
            .column(0)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert_eq!(id_col.values(), &[100, 200, 300]);

        // name column from file
        let name_col = result
            .column(1)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!(name_col.value(0), "a");

        // _partition struct column
        let partition_col = result
            .column(2)
            .as_any()
            .downcast_ref::<StructArray>()
            .unwrap();
        assert_eq!(partition_col.num_columns(), 1);
        assert_eq!(partition_col.len(), 3);

        let inner = partition_col
            .column(0)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert_eq!(inner.value(0), 42);
        assert_eq!(inner.value(1), 42);
        assert_eq!(inner.value(2), 42);
    }

    #[test]
    fn partition_column_with_evolution() {
        use arrow_array::StructArray;

        use crate::metadata_columns::RESERVED_FIELD_ID_PARTITION;
        use crate::partitioning::compute_unified_partition_type;
        use crate::spec::Transform;

        // Schema with two fields that could be partition sources
        let snapshot_schema = Arc::new(
            Schema::builder()
                .with_schema_id(0)
                .with_fields(vec![
                    NestedField::required(1, "year", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::required(2, "month", Type::Primitive(PrimitiveType::Int)).into(),
                    NestedField::optional(3, "data", Type::Primitive(PrimitiveType::String)).into(),
                ])
                .build()
                .unwrap(),
        );

        // Old spec: partition by year only
        let spec_v0 = crate::spec::PartitionSpec::builder(snapshot_schema.clone())
            .with_spec_id(0)
            .add_partition_field("year", "year", Transform::Identity)
            .unwrap()
            .build()
            .unwrap();

        // New spec: partition by year and month
        let spec_v1 = crate::spec::PartitionSpec::builder(snapshot_schema.clone())
            .with_spec_id(1)
            .add_partition_field("year", "year", Transform::Identity)
            .unwrap()
            .add_partition_field("month", "month", Transform::Identity)
            .unwrap()
            .build()
            .unwrap();

        // Unified type includes both year and month
        let unified_partition_type =
            compute_unified_partition_type([&spec_v0, &spec_v1].into_iter(), &snapshot_schema)
                .unwrap();

        assert_eq!(unified_partition_type.fields().len(), 2);

        // File written with spec_v0 (only has year=2023)
        let partition_data = Struct::from_iter(vec![Some(Literal::int(2023))]);

        let parquet_schema = Arc::new(ArrowSchema::new(vec![field_with_id(
            "data",
            DataType::Utf8,
            true,
            3,
        )]));

        let projected_field_ids = [3, RESERVED_FIELD_ID_PARTITION];

        let partition_column =
            build_partition_constant(&unified_partition_type, &spec_v0, &partition_data).unwrap();
        let mut transformer =
            RecordBatchTransformerBuilder::new(snapshot_schema, &projected_field_ids)
                .with_partition_constant(partition_column)
                .build();

        let parquet_batch =
            RecordBatch::try_new(parquet_schema, vec![Arc::new(StringArray::from(vec![
                "hello", "world",
            ]))])
            .unwrap();

        let result = transformer.process_record_batch(parquet_batch).unwrap();

        assert_eq!(result.num_columns(), 2);
        assert_eq!(result.num_rows(), 2);

        // _partition struct has 2 fields: year (present) and month (null for this old spec file)
        let partition_col = result
            .column(1)
            .as_any()
            .downcast_ref::<StructArray>()
            .unwrap();
        assert_eq!(partition_col.num_columns(), 2);

        let year_col = partition_col
            .column(0)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert_eq!(year_col.value(0), 2023);
        assert_eq!(year_col.value(1), 2023);

        let month_col = partition_col
            .column(1)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert!(month_col.is_null(0));
        assert!(month_col.is_null(1));
    }
}
